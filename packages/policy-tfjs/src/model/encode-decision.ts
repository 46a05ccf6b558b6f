import type { AgentContext, Skill, Task } from '@skillrl/core';
import { goalBindings } from '../skill/goal-bindings.js';
import { type GoalBindings, type SkillClause, skillClauses } from '../skill/skill-clauses.js';
import { isContentWord, tokenize } from '../text/tokenize.js';
import type { Vocabulary } from '../text/vocabulary.js';
import type { AgentConfig } from './agent-config.js';
import type { DecisionRecord } from './decision-record.js';

export interface EncoderOptions {
  config: AgentConfig;
  vocabulary: Vocabulary;
  bindings?: (task: Task) => GoalBindings;
}

/** Turns contexts into decision records; caches tokenisation and parsed skills across calls. */
export interface DecisionEncoder {
  encode(context: AgentContext, candidates: readonly string[], temperature: number): DecisionRecord;
  /**
   * The memory's word ids for a decision after these earlier actions. Not stored in the record: it is a
   * function of the trajectory's own actions, so the trainer rebuilds it (storing it would grow a record
   * with the episode's length, and a run's rollouts with its square).
   */
  memory(actions: readonly string[]): number[];
  /** `memory` of every decision of one episode: entry i is the memory after actions[0..i). */
  memories(actions: readonly string[]): number[][];
}

const CACHE_LIMIT = 50_000;
/** Candidate features lie in [0, FEATURE_SCALE]. */
export const FEATURE_SCALE = 4;
/** An action whose similarity to a clause reaches this has carried it out. */
const DONE_THRESHOLD = 0.6;

export function createDecisionEncoder(options: EncoderOptions): DecisionEncoder {
  const { config, vocabulary } = options;
  const bindingsOf = options.bindings ?? goalBindings;
  const tokens = new Map<string, string[]>();
  const ids = new Map<string, number[]>();
  const contentSets = new Map<string, Set<string>>();
  const clauses = new Map<string, SkillClause[]>();
  const goals = new Map<string, { bindings: GoalBindings; goal: string }>();

  const wordsOf = (text: string): string[] => {
    let t = tokens.get(text);
    if (t === undefined) {
      if (tokens.size > CACHE_LIMIT) tokens.clear();
      t = tokenize(text);
      tokens.set(text, t);
    }
    return t;
  };
  const idsOf = (text: string): number[] => {
    let t = ids.get(text);
    if (t === undefined) {
      if (ids.size > CACHE_LIMIT) ids.clear();
      t = wordsOf(text).map((w) => vocabulary.id(w));
      ids.set(text, t);
    }
    return t;
  };
  // Content words of an action, with synonyms folded: what is matched against skill clauses.
  const contentOf = (text: string): Set<string> => {
    let s = contentSets.get(text);
    if (s === undefined) {
      if (contentSets.size > CACHE_LIMIT) contentSets.clear();
      s = new Set(
        wordsOf(text)
          .map((w) => config.synonyms[w] ?? w)
          .filter(isContentWord),
      );
      contentSets.set(text, s);
    }
    return s;
  };
  // An action without its verb and function words, numbers kept: what it acts on.
  const signatureOf = (text: string): string =>
    wordsOf(text)
      .slice(1)
      .filter((w) => isContentWord(w) || /^\d+$/.test(w))
      .join(' ');
  const verbOf = (text: string): string => {
    const verb = wordsOf(text)[0] ?? '';
    return config.synonyms[verb] ?? verb;
  };
  const keyOf = (text: string): string => `${verbOf(text)}|${signatureOf(text)}`;
  // Same arguments as an earlier action, with the inverse verb ("take soapbottle 2 from garbagecan 1" after
  // moving it there, "close drawer 1" after opening it): undoing never carries out a clause.
  const undoes = (text: string, earlier: ReadonlySet<string>): boolean => {
    const inverse = config.inverses[verbOf(text)];
    return inverse !== undefined && earlier.has(`${inverse}|${signatureOf(text)}`);
  };
  const goalOf = (task: Task) => {
    let g = goals.get(task.id);
    if (g === undefined) {
      if (goals.size > CACHE_LIMIT) goals.clear();
      // Household prompts carry the goal after "Your task is to:"; elsewhere the whole prompt is the goal.
      const at = task.prompt.toLowerCase().lastIndexOf('task is to:');
      g = { bindings: bindingsOf(task), goal: at >= 0 ? task.prompt.slice(at + 11) : task.prompt };
      goals.set(task.id, g);
    }
    return g;
  };
  const clausesOf = (skill: Skill, bindings: GoalBindings): SkillClause[] => {
    const key = `${bindings.object ?? ''}|${bindings.receptacle ?? ''}|${skill.body}`;
    let c = clauses.get(key);
    if (c === undefined) {
      if (clauses.size > 1000) clauses.clear();
      c = skillClauses(skill.body, bindings).map((clause) => ({
        ...clause,
        words: [...new Set(clause.words.map((w) => config.synonyms[w] ?? w))],
      }));
      clauses.set(key, c);
    }
    return c;
  };

  const memory = (actions: readonly string[]): number[] => {
    if (config.memoryActions === 0) return [];
    return actions.slice(Math.max(0, actions.length - config.memoryActions)).flatMap((a) => idsOf(a));
  };
  return {
    memory,
    memories(actions) {
      // Episodes within the memory's reach (the default 50 covers a household episode) grow one prefix.
      const out: number[][] = [];
      let acc: number[] = [];
      for (let i = 0; i < actions.length; i++) {
        if (config.memoryActions === 0) out.push([]);
        else if (i <= config.memoryActions) {
          out.push(acc);
          acc = [...acc, ...idsOf(actions[i] as string)];
        } else out.push(memory(actions.slice(0, i)));
      }
      return out;
    },
    encode(context, candidates, temperature) {
      const { bindings, goal } = goalOf(context.task);
      const goalIds = idsOf(goal).slice(0, config.goalWords);
      const obsIds = idsOf(context.observation);
      const obs = obsIds.slice(Math.max(0, obsIds.length - config.observationWords));
      const history = context.history;
      const recent = history.slice(Math.max(0, history.length - config.historyActions));
      const hist = recent.flatMap((s) => idsOf(s.action));

      const goalContent = new Set(wordsOf(goal).filter(isContentWord));
      if (bindings.object) goalContent.add(bindings.object);
      if (bindings.receptacle) goalContent.add(bindings.receptacle);
      const obsContent = new Set(wordsOf(context.observation).filter(isContentWord));
      const taken = new Map<string, number>();
      for (const s of history) taken.set(s.action, (taken.get(s.action) ?? 0) + 1);
      const last = history.at(-1)?.action;
      // Content words of every earlier action: what the goal still asks for is what no action touched yet.
      const acted = new Set<string>();
      for (const s of history) for (const w of contentOf(s.action)) acted.add(w);
      // Verb|arguments of every earlier action, and which earlier actions undid one before them.
      const signatures = new Set<string>();
      const undid: boolean[] = [];
      for (const s of history) {
        undid.push(undoes(s.action, signatures));
        signatures.add(keyOf(s.action));
      }

      const cand: number[][] = [];
      const feats: number[][] = [];
      for (const c of candidates) {
        cand.push(idsOf(c));
        const content = contentOf(c);
        const n = Math.max(1, content.size);
        let inGoal = 0;
        let inObs = 0;
        let pending = 0;
        let inMemory = 0;
        for (const w of content) {
          if (goalContent.has(w)) {
            inGoal += 1;
            if (!acted.has(w)) pending += 1;
          }
          if (obsContent.has(w)) inObs += 1;
          if (acted.has(w)) inMemory += 1;
        }
        // Scaled so that one optimiser step on a feature weight moves a logit by FEATURE_SCALE·lr.
        feats.push(
          [
            inGoal / n,
            inObs / n,
            Math.min(3, taken.get(c) ?? 0) / 3,
            c === last ? 1 : 0,
            pending / n,
            inMemory / n,
          ].map((x) => x * FEATURE_SCALE),
        );
      }

      const record: DecisionRecord = {
        v: 1,
        candidates: [...candidates],
        chosen: -1,
        temperature,
        condition: context.condition === 1 && context.skill ? 1 : 0,
        cand,
        goal: goalIds,
        obs,
        hist,
        feats,
        done: [],
        rank: [],
        sign: [],
        sims: [],
      };
      if (record.condition === 1 && context.skill) {
        const cl = clausesOf(context.skill, bindings);
        // Progress through the skill's numbered steps. Each earlier action, in order, completes the first
        // pending clause it matches well enough in the current step, or in the next step once something
        // of the current one is done (a chance match ahead does not skip the procedure): that moves the
        // pointer on. Clauses repeated later ("put the second object …") stay pending. Once the current
        // step has been acted on (not merely walked to: "go to" is preparation), the next step is current
        // too: its clauses are not ranked down.
        const verbs = new Set(
          [...candidates, ...history.map((s) => s.action)].map(verbOf).filter(isContentWord),
        );
        // A step none of whose clauses names something the agent can do ("go to the place where the object
        // usually is (food on countertops …)") is carried out by walking.
        const walking = new Set(cl.map((c) => c.step));
        for (const c of cl) if (!c.negated && c.words.some((w) => verbs.has(w))) walking.delete(c.step);
        const done = new Array<number>(cl.length).fill(0);
        // One progress pointer per section: each section is its own procedure.
        const sections = [...new Set(cl.map((c) => c.section))];
        const pointer = new Map<number, number>();
        for (const c of cl) if (!pointer.has(c.section)) pointer.set(c.section, c.step);
        const progressed = new Map<number, boolean>();
        const acted = new Map<number, boolean>();
        for (const [h, step] of history.entries()) {
          if (undid[h]) continue;
          const content = contentOf(step.action);
          for (const section of sections) {
            let at = pointer.get(section) as number;
            for (let j = 0; j < cl.length; j++) {
              const clause = cl[j] as SkillClause;
              if (clause.section !== section) continue;
              if (clause.step > at + (progressed.get(section) ? 1 : 0)) break;
              if (clause.negated || (done[j] as number) >= DONE_THRESHOLD) continue;
              const s = similarity(content, clause.words);
              if (s < DONE_THRESHOLD) continue;
              done[j] = s;
              if (clause.step > at) {
                at = clause.step;
                pointer.set(section, at);
                acted.set(section, false);
              }
              progressed.set(section, true);
              if (isContentWord(verbOf(step.action)) || walking.has(at)) acted.set(section, true);
              break;
            }
          }
        }
        cl.forEach((clause, j) => {
          const at = pointer.get(clause.section) as number;
          record.done.push(clause.negated ? 0 : (done[j] as number));
          record.rank.push(Math.max(0, clause.step - at - (acted.get(clause.section) ? 1 : 0)));
          record.sign.push(clause.negated ? -1 : 1);
        });
        candidates.forEach((c, i) => {
          const content = contentOf(c);
          const repeated = taken.has(c);
          const undo = undoes(c, signatures);
          cl.forEach((clause, j) => {
            if (undo && !clause.negated) return;
            const s = similarity(content, clause.words);
            // A hint this action only half-matches ("dishes in cabinets" for "go to cabinet 2") was already
            // followed once if the action was taken: it does not send the agent back to the same place.
            const at = pointer.get(clause.section) as number;
            if (repeated && s < DONE_THRESHOLD && clause.step <= at && !clause.negated) return;
            if (s > 0) record.sims.push([i, j, s]);
          });
        });
      }
      return record;
    },
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
