import type { AgentContext, Skill, Task, TrajectoryStep } from '@skillrl/core';
import { goalBindings } from '../skill/goal-bindings.js';
import { type GoalBindings, type SkillClause, skillClauses } from '../skill/skill-clauses.js';
import { isContentWord, tokenize } from '../text/tokenize.js';
import type { Vocabulary } from '../text/vocabulary.js';
import type { AgentConfig } from './agent-config.js';
import {
  type DecisionRecord,
  FEATURE_SCALE,
  featureRow,
  featureRowOf,
  packCounts,
  type StoredDecisionRecord,
} from './decision-record.js';
import { RecentCache } from './recent-cache.js';

export interface EncoderOptions {
  config: AgentConfig;
  vocabulary: Vocabulary;
  bindings?: (task: Task) => GoalBindings;
}

/**
 * A decision's record, the memory's word ids beside it (what `scoreDecision` reads), and the record as the
 * agent stores it on the step (the same arrays; `chosen` is to be set on both).
 */
export interface EncodedDecision {
  record: DecisionRecord;
  /**
   * The memory's word ids: `memoryIds[memoryStart, memoryEnd)`, a window of the episode's ids, an array that
   * only grows while the history is the same (a rewritten history gets a new one). `memory()` copies it out.
   */
  memoryIds: readonly number[];
  memoryStart: number;
  memoryEnd: number;
  memory(): number[];
  stored: StoredDecisionRecord;
}

/**
 * Turns contexts into decision records; caches tokenisation and parsed skills across calls, and what each
 * episode's earlier actions say (counts, words touched, the skill's progress) per history array, so a
 * decision folds in only the actions taken since the last one instead of re-reading the whole episode.
 */
export interface DecisionEncoder {
  encode(context: AgentContext, candidates: readonly string[], temperature: number): DecisionRecord;
  /** `encode`, and the memory's word ids of the same decision (`memory` of the history's actions). */
  encodeWithMemory(
    context: AgentContext,
    candidates: readonly string[],
    temperature: number,
  ): EncodedDecision;
  /**
   * The memory's word ids for a decision after these earlier actions. Not stored in the record: it is a
   * function of the trajectory's own actions, so the trainer rebuilds it (storing it would grow a record
   * with the episode's length, and a run's rollouts with its square).
   */
  memory(actions: readonly string[]): number[];
  /** `memory` of every decision of one episode: entry i is the memory after actions[0..i). */
  memories(actions: readonly string[]): number[][];
  /** A text's word ids (cached: one array per text while the cache holds it). */
  wordIds(text: string): number[];
}

// What the caches keep, per generation (`RecentCache`: an entry unused for two generations is dropped). A
// SKILLC step's episodes (8 tasks x 8 rollouts of household) read about two thousand distinct texts, and
// the rollouts of one task share most of them; across steps the tasks change, so little more is gained by
// keeping more. Sized so that a 400-step run's caches hold what a 50-step run's do (they were maps of up to
// 50 000 texts each, and per skill list; a 400-step run's live heap grew by tens of MB).
/** Texts: tokens, word ids, action and observation readings. */
const TEXTS_KEPT = 4096;
/** Goals, one per task. */
const GOALS_KEPT = 1024;
/**
 * Parsed skills, one clause list per skill text and goal bindings (each with its similarities, below): a
 * step's tasks use a few each. Per skill object a smaller memo in front, keyed by the bindings alone.
 */
const SKILL_LISTS_KEPT = 32;
const BINDINGS_PER_SKILL_KEPT = 8;
/** Action texts' similarities to one skill's clauses. */
const SIMILARITIES_KEPT = 1024;

export { FEATURE_SCALE };

/** An action whose similarity to a clause reaches this has carried it out. */
const DONE_THRESHOLD = 0.6;

/** The skill's progress after the first `upTo` earlier actions, for one clause list and set of walking steps. */
interface Progress {
  upTo: number;
  done: number[];
  pointer: Map<number, number>;
  progressed: Map<number, boolean>;
  acted: Map<number, boolean>;
}

/**
 * What a decision reads off its episode's earlier actions, folded in one action at a time. Kept per history
 * array (the episode loop passes the same growing array at every step); a history that no longer starts
 * with the actions folded in is read again from its start, so the cache never changes a record.
 */
interface HistoryState {
  actions: string[];
  infos: ActionInfo[];
  /** How often each earlier action was taken, by action number (`ActionInfo.number`). */
  taken: Map<number, number>;
  /** Content words of every earlier action, as interned word numbers (a set, and its members in order). */
  touched: Set<number>;
  touchedList: number[];
  /** Verb|arguments of every earlier action, and per earlier action whether it undid one before it. */
  signatures: Set<string>;
  undid: boolean[];
  /** The earlier actions' verbs that are content words, as word numbers (a set, and its members). */
  verbs: Set<number>;
  verbList: number[];
  /** Word ids of the earlier actions end to end, and where each action's start (for the memory). */
  ids: number[];
  idStarts: number[];
  /** The skill's progress, per clause list and walking-step key. */
  progress: Map<SkillClause[], Map<number | string, Progress>>;
}

/** A clause list's sections in order with each one's first step, and similarities of texts against it. */
interface ClauseInfo {
  sections: number[];
  firstStep: Map<number, number>;
  sims: RecentCache<string, Similarities>;
  /** The distinct steps in order, each clause's place among them, and each clause's words as numbers. */
  steps: number[];
  stepOf: Map<number, number>;
  clauseStep: Int32Array;
  clauseWords: Int32Array[];
}

interface Similarities {
  values: Float64Array;
  /** The clauses with a similarity above 0, in order. */
  matching: Int32Array;
}

interface ActionInfo {
  /** The text's number: one per distinct action text for the encoder's life (never reused). */
  number: number;
  ids: number[];
  content: Set<string>;
  /** `content` as interned word numbers (`wordNumber`). */
  contentWords: Int32Array;
  verb: string;
  /** The verb is a content word (walking, "go to", is not), and the verb as a word number. */
  contentVerb: boolean;
  verbWord: number;
  /** Verb|arguments, and the key of the action this one would undo (none without an inverse verb). */
  key: string;
  undoneKey: string | undefined;
}

interface GoalInfo {
  bindings: GoalBindings;
  goal: string;
  ids: number[];
  content: Set<string>;
  contentWords: Int32Array;
}

/** Marks of a word in `WordFlags`: named by the goal, in the observation, touched by an earlier action. */
const IN_GOAL = 1;
const IN_OBSERVATION = 2;
const TOUCHED = 4;
/** A verb of a candidate or of an earlier action (`walking` steps). */
const VERB = 8;

export function createDecisionEncoder(options: EncoderOptions): DecisionEncoder {
  const { config, vocabulary } = options;
  const bindingsOf = options.bindings ?? goalBindings;
  const tokens = new RecentCache<string, string[]>(TEXTS_KEPT);
  const ids = new RecentCache<string, number[]>(TEXTS_KEPT);
  const actions = new RecentCache<string, ActionInfo>(TEXTS_KEPT);
  // Kept when an action text leaves `actions`: a history's counts are by these numbers.
  const actionNumbers = new Map<string, number>();
  const observations = new RecentCache<string, { ids: number[]; contentWords: Int32Array }>(TEXTS_KEPT);
  // Content words as small numbers, so a decision's goal / observation / history membership tests are
  // reads of one flags array instead of string set look-ups.
  const wordNumbers = new Map<string, number>();
  const wordNumber = (w: string): number => {
    let n = wordNumbers.get(w);
    if (n === undefined) {
      n = wordNumbers.size;
      wordNumbers.set(w, n);
    }
    return n;
  };
  const numbers = (words: Iterable<string>) => {
    const out: number[] = [];
    for (const w of words) out.push(wordNumber(w));
    return Int32Array.from(out);
  };
  let flags = new Uint8Array(256);
  const mark = (words: ArrayLike<number>, bit: number) => {
    for (let k = 0; k < words.length; k++) {
      const w = words[k] as number;
      flags[w] = (flags[w] as number) | bit;
    }
  };
  const unmark = (words: ArrayLike<number>, bit: number) => {
    for (let k = 0; k < words.length; k++) {
      const w = words[k] as number;
      flags[w] = (flags[w] as number) & ~bit;
    }
  };
  const clauses = new RecentCache<string, SkillClause[]>(SKILL_LISTS_KEPT);
  const skillClausesBy = new WeakMap<Skill, RecentCache<string, { body: string; clauses: SkillClause[] }>>();
  // Weak: a clause list's similarities go with the list, once neither cache above holds it.
  const clauseInfos = new WeakMap<SkillClause[], ClauseInfo>();
  const goals = new RecentCache<string, GoalInfo>(GOALS_KEPT);
  const histories = new WeakMap<readonly TrajectoryStep[], HistoryState>();

  const wordsOf = (text: string): string[] => {
    let t = tokens.get(text);
    if (t === undefined) {
      t = tokenize(text);
      tokens.set(text, t);
    }
    return t;
  };
  const idsOf = (text: string): number[] => {
    let t = ids.get(text);
    if (t === undefined) {
      t = wordsOf(text).map((w) => vocabulary.id(w));
      ids.set(text, t);
    }
    return t;
  };
  // What an action's text says, worked out once per text: its word ids, its content words with synonyms
  // folded (what is matched against skill clauses), its verb and what it acts on (the action without its
  // verb and function words, numbers kept), and the key an earlier action undoing it would have.
  const actionOf = (text: string): ActionInfo => {
    let a = actions.get(text);
    if (a === undefined) {
      const words = wordsOf(text);
      const first = words[0] ?? '';
      const verb = config.synonyms[first] ?? first;
      const signature = words
        .slice(1)
        .filter((w) => isContentWord(w) || /^\d+$/.test(w))
        .join(' ');
      const inverse = config.inverses[verb];
      const content = new Set(words.map((w) => config.synonyms[w] ?? w).filter(isContentWord));
      let number = actionNumbers.get(text);
      if (number === undefined) {
        number = actionNumbers.size;
        actionNumbers.set(text, number);
      }
      a = {
        number,
        ids: idsOf(text),
        content,
        contentWords: numbers(content),
        verb,
        contentVerb: isContentWord(verb),
        verbWord: wordNumber(verb),
        key: `${verb}|${signature}`,
        // Same arguments as an earlier action, with the inverse verb ("take soapbottle 2 from garbagecan 1"
        // after moving it there, "close drawer 1" after opening it): undoing never carries out a clause.
        undoneKey: inverse === undefined ? undefined : `${inverse}|${signature}`,
      };
      actions.set(text, a);
    }
    return a;
  };
  const undoes = (a: ActionInfo, earlier: ReadonlySet<string>): boolean =>
    a.undoneKey !== undefined && earlier.has(a.undoneKey);
  const goalOf = (task: Task): GoalInfo => {
    let g = goals.get(task.id);
    if (g === undefined) {
      // Household prompts carry the goal after "Your task is to:"; elsewhere the whole prompt is the goal.
      const at = task.prompt.toLowerCase().lastIndexOf('task is to:');
      const bindings = bindingsOf(task);
      const goal = at >= 0 ? task.prompt.slice(at + 11) : task.prompt;
      const content = new Set(wordsOf(goal).filter(isContentWord));
      if (bindings.object) content.add(bindings.object);
      if (bindings.receptacle) content.add(bindings.receptacle);
      g = {
        bindings,
        goal,
        ids: idsOf(goal).slice(0, config.goalWords),
        content,
        contentWords: numbers(content),
      };
      goals.set(task.id, g);
    }
    return g;
  };
  const observationOf = (text: string) => {
    let o = observations.get(text);
    if (o === undefined) {
      const all = idsOf(text);
      o = {
        ids: all.slice(Math.max(0, all.length - config.observationWords)),
        contentWords: numbers(new Set(wordsOf(text).filter(isContentWord))),
      };
      observations.set(text, o);
    }
    return o;
  };
  // By skill object first (a run hands the same skill to every episode), then by the skill's text.
  const clausesOf = (skill: Skill, bindings: GoalBindings): SkillClause[] => {
    const bound = `${bindings.object ?? ''}|${bindings.receptacle ?? ''}`;
    let bySkill = skillClausesBy.get(skill);
    if (bySkill === undefined) {
      bySkill = new RecentCache(BINDINGS_PER_SKILL_KEPT);
      skillClausesBy.set(skill, bySkill);
    }
    let c = bySkill.get(bound);
    if (c !== undefined && c.body === skill.body) return c.clauses;
    const key = `${bound}|${skill.body}`;
    let cl = clauses.get(key);
    if (cl === undefined) {
      cl = skillClauses(skill.body, bindings).map((clause) => ({
        ...clause,
        words: [...new Set(clause.words.map((w) => config.synonyms[w] ?? w))],
      }));
      clauses.set(key, cl);
    }
    c = { body: skill.body, clauses: cl };
    bySkill.set(bound, c);
    return cl;
  };
  const clauseInfo = (cl: SkillClause[]): ClauseInfo => {
    let info = clauseInfos.get(cl);
    if (info === undefined) {
      const firstStep = new Map<number, number>();
      for (const c of cl) if (!firstStep.has(c.section)) firstStep.set(c.section, c.step);
      const steps = [...new Set(cl.map((c) => c.step))];
      const stepOf = new Map(steps.map((step, i) => [step, i]));
      info = {
        sections: [...new Set(cl.map((c) => c.section))],
        firstStep,
        sims: new RecentCache(SIMILARITIES_KEPT),
        steps,
        stepOf,
        clauseStep: Int32Array.from(cl, (c) => stepOf.get(c.step) as number),
        clauseWords: cl.map((c) => numbers(c.words)),
      };
      clauseInfos.set(cl, info);
    }
    return info;
  };
  // An action's similarity to every clause of a list, and the clauses it shares a word with.
  const similaritiesOf = (cl: SkillClause[], info: ClauseInfo, text: string, a: ActionInfo): Similarities => {
    let s = info.sims.get(text);
    if (s === undefined) {
      // Plain loops: `Float64Array.from` with a map function takes the iterator protocol's slow path.
      const values = new Float64Array(cl.length);
      let count = 0;
      for (let j = 0; j < cl.length; j++) {
        const v = similarity(a.content, (cl[j] as SkillClause).words);
        values[j] = v;
        if (v > 0) count += 1;
      }
      const matching = new Int32Array(count);
      for (let j = 0, m = 0; j < cl.length; j++) if ((values[j] as number) > 0) matching[m++] = j;
      s = { values, matching };
      info.sims.set(text, s);
    }
    return s;
  };

  const historyOf = (history: readonly TrajectoryStep[]): HistoryState => {
    let st = histories.get(history);
    if (st !== undefined && history.length >= st.actions.length) {
      for (let i = 0; i < st.actions.length; i++) {
        if ((history[i] as TrajectoryStep).action !== st.actions[i]) {
          st = undefined;
          break;
        }
      }
    } else st = undefined;
    if (st === undefined) {
      st = {
        actions: [],
        infos: [],
        taken: new Map(),
        touched: new Set(),
        touchedList: [],
        signatures: new Set(),
        undid: [],
        verbs: new Set(),
        verbList: [],
        ids: [],
        idStarts: [],
        progress: new Map(),
      };
      histories.set(history, st);
    }
    for (let h = st.actions.length; h < history.length; h++) {
      const action = (history[h] as TrajectoryStep).action;
      const a = actionOf(action);
      st.actions.push(action);
      st.infos.push(a);
      st.taken.set(a.number, (st.taken.get(a.number) ?? 0) + 1);
      const words = a.contentWords;
      for (let k = 0; k < words.length; k++) {
        const w = words[k] as number;
        if (!st.touched.has(w)) {
          st.touched.add(w);
          st.touchedList.push(w);
        }
      }
      st.undid.push(undoes(a, st.signatures));
      st.signatures.add(a.key);
      if (a.contentVerb && !st.verbs.has(a.verbWord)) {
        st.verbs.add(a.verbWord);
        st.verbList.push(a.verbWord);
      }
      st.idStarts.push(st.ids.length);
      for (let k = 0; k < a.ids.length; k++) st.ids.push(a.ids[k] as number);
    }
    return st;
  };
  // Where the memory's window of the episode's ids starts (the last `memoryActions` actions).
  const windowStart = (st: HistoryState): number => {
    if (config.memoryActions === 0) return st.ids.length;
    const from = Math.max(0, st.actions.length - config.memoryActions);
    return st.idStarts[from] ?? st.ids.length;
  };

  /**
   * Progress through the skill's numbered steps. Each earlier action, in order, completes the first pending
   * clause it matches well enough in the current step, or in the next step once something of the current
   * one is done (a chance match ahead does not skip the procedure): that moves the pointer on. Clauses
   * repeated later ("put the second object …") stay pending. Once the current step has been acted on (not
   * merely walked to: "go to" is preparation), the next step is current too: its clauses are not ranked down.
   */
  const progressOf = (
    st: HistoryState,
    cl: SkillClause[],
    info: ClauseInfo,
    walking: Uint8Array,
    key: number | string,
  ): Progress => {
    let byWalking = st.progress.get(cl);
    if (byWalking === undefined) {
      byWalking = new Map();
      st.progress.set(cl, byWalking);
    }
    let p = byWalking.get(key);
    if (p === undefined) {
      if (byWalking.size > 64) byWalking.clear();
      // One progress pointer per section: each section is its own procedure.
      p = {
        upTo: 0,
        done: new Array<number>(cl.length).fill(0),
        pointer: new Map(info.firstStep),
        progressed: new Map(),
        acted: new Map(),
      };
      byWalking.set(key, p);
    }
    const { done, pointer, progressed, acted } = p;
    for (let h = p.upTo; h < st.actions.length; h++) {
      if (st.undid[h]) continue;
      const action = st.actions[h] as string;
      const a = st.infos[h] as ActionInfo;
      const sims = similaritiesOf(cl, info, action, a).values;
      for (const section of info.sections) {
        let at = pointer.get(section) as number;
        for (let j = 0; j < cl.length; j++) {
          const clause = cl[j] as SkillClause;
          if (clause.section !== section) continue;
          if (clause.step > at + (progressed.get(section) ? 1 : 0)) break;
          if (clause.negated || (done[j] as number) >= DONE_THRESHOLD) continue;
          const s = sims[j] as number;
          if (s < DONE_THRESHOLD) continue;
          done[j] = s;
          if (clause.step > at) {
            at = clause.step;
            pointer.set(section, at);
            acted.set(section, false);
          }
          progressed.set(section, true);
          if (a.contentVerb || walking[info.stepOf.get(at) as number] === 1) acted.set(section, true);
          break;
        }
      }
    }
    p.upTo = st.actions.length;
    return p;
  };

  const encodeWithMemory = (
    context: AgentContext,
    candidates: readonly string[],
    temperature: number,
  ): EncodedDecision => {
    const goal = goalOf(context.task);
    const observation = observationOf(context.observation);
    const history = context.history;
    const st = historyOf(history);
    // The recent actions' word ids: the tail of the episode's ids.
    const hist = st.ids.slice(
      st.idStarts[Math.max(0, history.length - config.historyActions)] ?? st.ids.length,
    );
    // The last action, by number (same text, same number).
    const last = st.infos.at(-1)?.number;
    const { taken, touchedList } = st;
    const earlierActionsFeature = config.earlierActionsFeature;

    // Sized up front: growing them by push reallocates each several times a decision.
    const C = candidates.length;
    const cand = new Array<number[]>(C);
    const feats = new Array<number[]>(C);
    const featureCounts = new Array<number>(C);
    let packed = true;
    const infos = candidates.map(actionOf);
    if (flags.length < wordNumbers.size) flags = new Uint8Array(2 * wordNumbers.size);
    const [goalWords, observationWords] = [goal.contentWords, observation.contentWords];
    mark(goalWords, IN_GOAL);
    mark(observationWords, IN_OBSERVATION);
    mark(touchedList, TOUCHED);
    for (let i = 0; i < candidates.length; i++) {
      const a = infos[i] as ActionInfo;
      cand[i] = a.ids;
      const words = a.contentWords;
      const n = Math.max(1, words.length);
      let inGoal = 0;
      let inObs = 0;
      let pending = 0;
      let inMemory = 0;
      for (let k = 0; k < words.length; k++) {
        const f = flags[words[k] as number] as number;
        if (f & IN_GOAL) {
          inGoal += 1;
          if (!(f & TOUCHED)) pending += 1;
        }
        if (f & IN_OBSERVATION) inObs += 1;
        if (earlierActionsFeature && f & TOUCHED) inMemory += 1;
      }
      const times = Math.min(3, taken.get(a.number) ?? 0);
      const isLast = a.number === last ? 1 : 0;
      const code = packCounts(n, inGoal, inObs, pending, inMemory, times, isLast);
      if (code === undefined) {
        packed = false;
        feats[i] = featureRow(n, inGoal, inObs, pending, inMemory, times, isLast);
      } else {
        featureCounts[i] = code;
        feats[i] = featureRowOf(code);
      }
    }
    unmark(goalWords, IN_GOAL);
    unmark(observationWords, IN_OBSERVATION);
    unmark(touchedList, TOUCHED);

    const record: DecisionRecord = {
      v: 1,
      candidates: [...candidates],
      chosen: -1,
      temperature,
      condition: context.condition === 1 && context.skill ? 1 : 0,
      cand,
      goal: goal.ids,
      obs: observation.ids,
      hist,
      feats,
      done: [],
      rank: [],
      sign: [],
      sims: [],
    };
    if (record.condition === 1 && context.skill) {
      const cl = clausesOf(context.skill, goal.bindings);
      const info = clauseInfo(cl);
      // A step none of whose clauses names something the agent can do ("go to the place where the object
      // usually is (food on countertops …)") is carried out by walking. The verbs of the candidates and of
      // the earlier actions are marked in the flags; walking[i] is 1 for the i-th step that is walked.
      if (flags.length < wordNumbers.size) flags = new Uint8Array(2 * wordNumbers.size);
      const { verbList } = st;
      mark(verbList, VERB);
      for (let c = 0; c < infos.length; c++) {
        const a = infos[c] as ActionInfo;
        if (a.contentVerb) flags[a.verbWord] = (flags[a.verbWord] as number) | VERB;
      }
      const walking = new Uint8Array(info.steps.length).fill(1);
      for (let j = 0; j < cl.length; j++) {
        if ((cl[j] as SkillClause).negated) continue;
        const words = info.clauseWords[j] as Int32Array;
        for (let k = 0; k < words.length; k++) {
          if ((flags[words[k] as number] as number) & VERB) {
            walking[info.clauseStep[j] as number] = 0;
            break;
          }
        }
      }
      unmark(verbList, VERB);
      for (let c = 0; c < infos.length; c++) {
        const w = (infos[c] as ActionInfo).verbWord;
        flags[w] = (flags[w] as number) & ~VERB;
      }
      // The walked steps as a key: a bit mask while they fit, else the flags as text.
      let key: number | string = 0;
      if (walking.length <= 30) for (let i = 0; i < walking.length; i++) key += (walking[i] as number) << i;
      else key = walking.join('');
      const { done, pointer, acted } = progressOf(st, cl, info, walking, key);
      record.done = new Array<number>(cl.length);
      record.rank = new Array<number>(cl.length);
      record.sign = new Array<number>(cl.length);
      for (let j = 0; j < cl.length; j++) {
        const clause = cl[j] as SkillClause;
        const at = pointer.get(clause.section) as number;
        record.done[j] = clause.negated ? 0 : (done[j] as number);
        record.rank[j] = Math.max(0, clause.step - at - (acted.get(clause.section) ? 1 : 0));
        record.sign[j] = clause.negated ? -1 : 1;
      }
      for (let i = 0; i < candidates.length; i++) {
        const c = candidates[i] as string;
        const a = infos[i] as ActionInfo;
        const { values, matching } = similaritiesOf(cl, info, c, a);
        const repeated = taken.has(a.number);
        const undo = undoes(a, st.signatures);
        for (let m = 0; m < matching.length; m++) {
          const j = matching[m] as number;
          const clause = cl[j] as SkillClause;
          if (undo && !clause.negated) continue;
          const s = values[j] as number;
          // A hint this action only half-matches ("dishes in cabinets" for "go to cabinet 2") was already
          // followed once if the action was taken: it does not send the agent back to the same place.
          const at = pointer.get(clause.section) as number;
          if (repeated && s < DONE_THRESHOLD && clause.step <= at && !clause.negated) continue;
          record.sims.push([i, j, s]);
        }
      }
    }
    const stored: StoredDecisionRecord = {
      v: 2,
      candidates: record.candidates,
      chosen: -1,
      temperature,
      condition: record.condition,
      goal: record.goal,
      obs: record.obs,
      hist: record.hist,
      ...(packed ? { featureCounts } : { feats }),
      done: record.done,
      rank: record.rank,
      sign: record.sign,
      sims: record.sims,
    };
    const memoryIds = st.ids;
    const memoryStart = windowStart(st);
    const memoryEnd = st.ids.length;
    return {
      record,
      memoryIds,
      memoryStart,
      memoryEnd,
      memory: () => memoryIds.slice(memoryStart, memoryEnd),
      stored,
    };
  };

  const memory = (actions: readonly string[]): number[] => {
    if (config.memoryActions === 0) return [];
    return actions.slice(Math.max(0, actions.length - config.memoryActions)).flatMap((a) => idsOf(a));
  };
  return {
    memory,
    memories(actions) {
      // Episodes within the memory's reach (the default 50 covers a household episode) grow one prefix.
      // Each entry a slice of the episode's ids end to end (a copy, so entries stay independent arrays).
      const out: number[][] = [];
      const all: number[] = [];
      for (let i = 0; i < actions.length; i++) {
        if (config.memoryActions === 0) out.push([]);
        else if (i <= config.memoryActions) out.push(all.slice(0, all.length));
        else out.push(memory(actions.slice(0, i)));
        const ids = idsOf(actions[i] as string);
        for (let k = 0; k < ids.length; k++) all.push(ids[k] as number);
      }
      return out;
    },
    encodeWithMemory,
    encode: (context, candidates, temperature) => encodeWithMemory(context, candidates, temperature).record,
    wordIds: idsOf,
  };
}

/** A clause word that stands for whatever place the action names ("open the receptacle if it is closed"). */
export const ANY_PLACE = 'receptacle';

/**
 * Token overlap both ways: (shared / action words) × (shared / clause words). A candidate that is exactly a
 * clause scores 1; "take egg" against "take apple" scores ¼, not ½, so a half-match does not pass for the
 * step. An unbound "receptacle" in the clause matches one action word the rest of the clause left over.
 */
export function similarity(action: ReadonlySet<string>, clause: readonly string[]): number {
  if (action.size === 0 || clause.length === 0) return 0;
  let shared = 0;
  let wildcard = false;
  for (const w of clause) {
    if (w === ANY_PLACE && !action.has(w)) wildcard = true;
    else if (action.has(w)) shared += 1;
  }
  if (wildcard && shared > 0 && shared < action.size) shared += 1;
  return (shared / action.size) * (shared / clause.length);
}
