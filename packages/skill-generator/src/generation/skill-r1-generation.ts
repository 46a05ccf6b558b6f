import type {
  AdvantageBatch,
  AdvantageResult,
  EpisodeSummary,
  GenerationRecord,
  Rng,
  Skill,
  SkillCandidate,
  SkillGenerationContext,
  SkillUpdateContext,
  Task,
  TrainMetrics,
  Trajectory,
} from '@skillrl/core';
import { InvalidArgumentError, mean, splitErrored } from '@skillrl/core';
import type { PlanRolloutsOptions } from '@skillrl/rollout';
import { editorUpdateInput } from './editor-update.js';
import { episodeSummary } from './episode-summary.js';
import { type GenerationSignal, generationSignal, identicalToParent } from './generation-signal.js';
import {
  type ProposedTask,
  proposeCandidates,
  type SkillR1Fallback,
  type SkillR1Proposal,
  type SkillR1ProposalAttempt,
  type SkillR1ProposalStats,
} from './propose-candidates.js';

/** One task instance's place in the loop. Plain JSON: it is what a checkpoint stores. */
export interface SkillR1TaskState {
  /** H_{g−1}: one record per finished generation (s0's at generation 0), what the editor conditions on. */
  history: GenerationRecord[];
  /** The skill carried into the next generation. */
  current?: Skill;
  /**
   * Mean reward of the latest scored generation (s0's rollouts before generation 1), errored rollouts left
   * out: A_inter's baseline.
   */
  previousMean?: number;
  /**
   * Mean reward of the carried skill's own rollouts in the latest generation (s0's before generation 1; the
   * skill-free rollouts' after a `no-skill` fallback): the baseline of `skill-r1`'s `interBaseline:
   * 'carried-skill'`. Absent in a state checkpointed before it existed: such a task is left out of the
   * batch's `carriedMeans` for one generation.
   */
  carriedMean?: number;
}

/** The loop's state over a set of task instances. Plain JSON. */
export interface SkillR1State {
  tasks: Record<string, SkillR1TaskState>;
  /** Mean reward over each generation's scored rollouts, by generation (a hole where nothing ran or scored). */
  generationMeans: number[];
}

/** The state before generation 0: no history, no carried skill. */
export function createSkillR1State(tasks: readonly Task[]): SkillR1State {
  return { tasks: Object.fromEntries(tasks.map((t) => [t.id, { history: [] }])), generationMeans: [] };
}

/**
 * The episodes a generation asks for, as `@skillrl/rollout`'s planning options: per task one group of
 * `groupSize` episodes per skill (a group per candidate when `skills` gives several), all with the skill.
 */
export type SkillR1EpisodeRequest = Required<Pick<PlanRolloutsOptions, 'groupSize' | 'seed'>> & {
  tasks: readonly Task[];
  skills: (task: Task) => Skill | Skill[] | undefined;
  /** Recorded on every trajectory: 0 for s0's rollouts, g for generation g. */
  generation: number;
};

/** What a generation needs from outside: the editor, the rollouts, the estimator, and persistence hooks. */
export interface SkillR1Ports {
  /** The editor's proposals (`SkillGenerator.propose`). */
  propose(context: SkillGenerationContext, n: number): Promise<SkillCandidate[]>;
  /** Runs the episodes and returns their trajectories (in any order: the step groups them by id fields). */
  runEpisodes(request: SkillR1EpisodeRequest): Promise<Trajectory[]>;
  /** Scores the candidates: the `skill-r1` two-level estimator, or any other. A fresh estimator per call. */
  estimate(batch: AdvantageBatch): AdvantageResult;
  /**
   * The editor's update from candidate advantages (`SkillGenerator.update`), called when `train` is set, with
   * the generation's rejected replies that carry their sampled tokens (`context.rejected`).
   */
  update?(
    candidates: readonly SkillCandidate[],
    advantages: ArrayLike<number>,
    context: SkillUpdateContext,
  ): Promise<TrainMetrics>;
  /**
   * What an interrupted run stored for this task in this generation (`onCandidates`' third argument):
   * evaluated again, not re-proposed.
   */
  storedProposal?(taskId: string): SkillR1Proposal | undefined;
  /** The same from the candidates alone (`[]`: the task ran without a skill), when `storedProposal` is not given. */
  storedCandidates?(taskId: string): SkillCandidate[] | undefined;
  /**
   * Receives each task's candidates, and the editor calls it took, before any rollout of the generation
   * (store them here). `candidates` is `[]` when the task falls back to running without a skill.
   */
  onCandidates?(
    taskId: string,
    candidates: SkillCandidate[],
    proposal: SkillR1Proposal,
  ): void | Promise<void>;
  /** Receives each editor call that gave no valid candidate, as it finishes, before the retry (store it here). */
  onAttempt?(taskId: string, attempt: SkillR1ProposalAttempt): void | Promise<void>;
  /** The failed calls an interrupted run stored for this task (`onAttempt`): not sent again. */
  storedAttempts?(taskId: string): readonly SkillR1ProposalAttempt[] | undefined;
  /** Called as each task's candidates are complete (stored ones first): for a progress display. */
  onProposed?(progress: { taskId: string; done: number; total: number; stats: SkillR1ProposalStats }): void;
}

export interface SkillR1GenerationInput {
  /** 0 measures the starting skills s0; 1..G propose, score, update and carry. */
  generation: number;
  tasks: readonly Task[];
  state: SkillR1State;
  /** K: candidates per task and generation. */
  candidates: number;
  /** M: episodes per candidate, and per task under s0. */
  episodes: number;
  /** λ of A_inter, the batch's `interGenerationWeights` for every sample (0: vanilla GRPO's A_intra alone). */
  lambda: number;
  /**
   * Whether the batch carries each instance's A_inter baselines: the previous generation's mean
   * (`previousMeans`) and the carried skill's (`carriedMeans`). False for vanilla GRPO, which scores
   * candidates within the generation only (both records are then empty).
   */
  interGeneration: boolean;
  /** Which candidate goes forward: the best (ties to the earliest), or one sampled in proportion to reward. */
  carry: 'best' | 'sample';
  /** The editor learns from this generation (`grpo` mode on training tasks; not in inference or held out). */
  train: boolean;
  /** Generation 0: each task's starting skill s0 (none: the task has no s0). */
  initialSkill?: (task: Task) => Skill | undefined;
  /** Generation 0: tasks without s0 run skill-free (the no-skill baseline) instead of not at all. */
  skillFreeStart?: boolean;
  /** The run's root stream. Proposal seeds, the episode plan's seed and carry draws fork from it by `unit`. */
  rng: Rng;
  /** The generation's name in the run (`g2`, or `h2` held out): what the seeds derive from. */
  unit: string;
  /** Names the editor in errors: `name` (`package:my-editor`) and the setting to fix (`evolve.generator`). */
  editor?: { name: string; argument: string };
  /**
   * Retries per task when an editor call gives no valid candidate (a reply without a SKILL.md, skills that
   * fail `validateSkill`, nothing, or the call throws); each retry carries what was wrong in
   * `context.rejections`. Past them the task falls back (`SkillR1Fallback`). Default 2.
   */
  proposalRetries?: number;
  /** Tasks proposed for at once (the run's concurrency, capped by the editor's `maxConcurrency`). Default 8. */
  proposalConcurrency?: number;
  signal?: AbortSignal;
}

/** What a generation did for one task: for the `generation` event and the skill written to the run. */
export interface SkillR1TaskOutcome {
  taskId: string;
  /** The skill carried out of the generation (s0 at generation 0); absent when the task ran without one. */
  skill?: Skill;
  /** Mean reward of the task's rollouts in this generation. */
  meanReward: number;
  /** The carried candidate's own mean reward (selection-biased: a fresh evaluation measures it afresh). */
  bestReward: number;
  /** Candidates scored (generation ≥ 1). */
  candidates?: number;
  /** Mean reward minus the previous generation's (generation ≥ 1, when there was one). */
  inter?: number;
  /** Generation ≥ 1: what the task ran with when the editor gave no valid candidate. */
  fallback?: SkillR1Fallback;
  /** Generation ≥ 1: the task's editor calls, failed calls and rejected proposals. */
  proposals?: { calls: number; failedCalls: number; rejected: number; reused: boolean };
  /** The task's rollouts that ended in an error: left out of every mean above, counted here. */
  rolloutsErrored: number;
  /** Generation ≥ 1: candidates whose every rollout ended in an error (no score: not in the batch, not carried). */
  unscoredCandidates?: number;
  /**
   * Generation ≥ 1: the task's signal — the editor's candidates, how many were byte-identical to the skill
   * they were proposed from, and whether its scored candidates all scored alike.
   */
  signal?: { candidates: number; identicalCandidates: number; zeroVariance: boolean };
}

/**
 * A task that ran but has no score this generation: every rollout it ran ended in an error (s0's, a
 * skill-free fallback's, or every candidate's). It carries nothing new, its A_inter baselines stay those
 * of its last scored generation, and its history gets no record: an API failure measured nothing.
 */
export interface SkillR1UnscoredTask {
  taskId: string;
  rolloutsErrored: number;
  /** Generation ≥ 1: its candidates, all unscored (0 for a skill-free fallback). */
  candidates?: number;
  fallback?: SkillR1Fallback;
  proposals?: SkillR1TaskOutcome['proposals'];
}

/** One row of a generation's batch: a candidate of a task with its mean reward and advantage. */
export interface SkillR1AdvantageRow {
  taskId: string;
  candidate: number;
  reward: number;
  advantage: number;
  /** The current skill standing in for an editor that gave nothing valid: not the editor's output, not learned from. */
  fallback?: true;
  /** The candidate's rollouts that ended in an error and were left out of `reward` (absent: none). */
  errored?: number;
}

export interface SkillR1GenerationResult {
  /** The new state (the input state is not modified). */
  state: SkillR1State;
  /** Per task that ran and has a score: what it carried and scored. */
  tasks: SkillR1TaskOutcome[];
  /** Tasks that ran but whose every rollout ended in an error: no score, nothing carried (absent: none). */
  unscored?: SkillR1UnscoredTask[];
  /** The generation's rollouts that ended in an error, over all tasks: left out of every score. */
  rolloutsErrored: number;
  /** Generation ≥ 1: candidates, over all tasks, whose every rollout ended in an error. */
  unscoredCandidates?: number;
  /**
   * The batch the editor learned from, one row per scored (task, candidate) in batch order (generation ≥ 1);
   * a candidate whose every rollout errored has no score and no row.
   */
  advantages?: SkillR1AdvantageRow[];
  /** The estimator's metrics (generation ≥ 1). */
  estimatorMetrics?: Record<string, number>;
  /** The editor update's metrics (when it trained). */
  trainMetrics?: Record<string, number>;
  /** Mean reward over the generation's scored rollouts; absent when nothing ran or nothing has a score. */
  mean?: number;
  /**
   * Generation ≥ 1: editor calls, failed calls, rejected proposals and fallbacks over the generation's
   * tasks (stored ones included; `reusedCalls` of the calls were re-read, not sent): for an error budget.
   */
  proposals?: SkillR1ProposalStats;
  /** Generation ≥ 1: what the update had to learn from, and why it was void when it was. */
  signal?: GenerationSignal;
}

/** Failed and successful episodes each generation record keeps for the editor. */
const EXAMPLES = 3;

function recordFor(
  generation: number,
  skill: Skill,
  reward: number,
  runs: readonly Trajectory[],
): GenerationRecord {
  const failures: EpisodeSummary[] = [];
  const successes: EpisodeSummary[] = [];
  for (const t of runs) {
    const list = t.verdict.passed ? successes : failures;
    if (list.length < EXAMPLES) list.push(episodeSummary(t));
  }
  return { generation, skill, reward, failures, successes };
}

function taskState(state: SkillR1State, taskId: string): SkillR1TaskState {
  state.tasks[taskId] ??= { history: [] };
  return state.tasks[taskId];
}

/**
 * One generation of Skill-R1 (arXiv 2605.09359) over a set of task instances. Generation 0 runs M episodes
 * under each task's starting skill s0, the baseline of A_inter(1). Generation g ≥ 1: the editor proposes K
 * candidates per task from its history H_{g−1}, for all tasks concurrently; a call that gives no valid
 * candidate is retried with what was wrong, and past the retries the task falls back to its current skill
 * (or runs without one); the frozen task model runs M episodes under each candidate, the estimator scores
 * them in one two-level batch (λ per sample, the previous generation's and the carried skill's mean per
 * instance), the editor learns from its own candidates in `grpo` mode, and the best (or a sampled) candidate
 * is carried forward with a history record.
 *
 * The step keeps no state of its own and writes nothing: the caller persists the returned state, the
 * proposals (`onCandidates`, `onAttempt`) and the batch, and reports the outcomes and the proposal counts.
 */
export async function runSkillR1Generation(
  input: SkillR1GenerationInput,
  ports: SkillR1Ports,
): Promise<SkillR1GenerationResult> {
  const g = input.generation;
  if (!Number.isInteger(g) || g < 0) {
    throw new InvalidArgumentError('generation', `expected an integer >= 0, got ${String(g)}`);
  }
  const state = structuredClone(input.state);
  return g === 0 ? runStart(input, state, ports) : runEditorGeneration(input, state, ports);
}

async function runStart(
  input: SkillR1GenerationInput,
  state: SkillR1State,
  ports: SkillR1Ports,
): Promise<SkillR1GenerationResult> {
  const s0 = (task: Task) => input.initialSkill?.(task);
  const runs = await ports.runEpisodes({
    tasks: input.skillFreeStart ? input.tasks : input.tasks.filter((t) => s0(t) !== undefined),
    skills: s0,
    groupSize: input.episodes,
    seed: input.rng.seedFor(input.unit),
    generation: 0,
  });
  const outcomes: SkillR1TaskOutcome[] = [];
  const unscored: SkillR1UnscoredTask[] = [];
  // An errored rollout measured nothing about s0: left out of every mean, counted.
  const { scored, errored } = splitErrored(runs);
  for (const task of input.tasks) {
    const mine = scored.filter((r) => r.taskId === task.id);
    const erroredHere = errored.filter((r) => r.taskId === task.id).length;
    const ts = taskState(state, task.id);
    const skill = s0(task);
    // s0 is the starting skill whether or not its rollouts could be scored (every task with one ran).
    if (skill) ts.current = skill;
    if (mine.length === 0) {
      // No score: no A_inter baseline (generation 1 then has none for this task) rather than a made-up 0.
      if (erroredHere > 0) unscored.push({ taskId: task.id, rolloutsErrored: erroredHere });
      continue;
    }
    const reward = mean(mine.map((r) => r.reward));
    ts.previousMean = reward;
    ts.carriedMean = reward;
    if (skill) ts.history.push(recordFor(0, skill, reward, mine));
    outcomes.push({
      taskId: task.id,
      ...(skill ? { skill } : {}),
      meanReward: reward,
      bestReward: reward,
      rolloutsErrored: erroredHere,
    });
  }
  const counts = { rolloutsErrored: errored.length, ...(unscored.length > 0 ? { unscored } : {}) };
  // Without s0 (no starting skill) nothing ran, or nothing ran without an error: no mean, rather than a made-up 0.
  if (scored.length === 0) return { state, tasks: outcomes, ...counts };
  const generationMean = mean(scored.map((r) => r.reward));
  state.generationMeans[0] = generationMean;
  return { state, tasks: outcomes, ...counts, mean: generationMean };
}

/** Ties go to the earliest candidate, so the choice is a function of the rewards alone. */
function carry<T extends { reward: number }>(input: SkillR1GenerationInput, items: T[], taskId: string): T {
  if (input.carry === 'sample') {
    const rng = input.rng.fork(`carry:${input.unit}:${taskId}`);
    const total = items.reduce((a, b) => a + Math.max(b.reward, 0), 0);
    if (total > 0) {
      let u = rng.float() * total;
      for (const item of items) {
        u -= Math.max(item.reward, 0);
        if (u < 0) return item;
      }
    }
    return rng.pick(items);
  }
  return items.reduce((best, item) => (item.reward > best.reward ? item : best));
}

function checkCount(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
    throw new InvalidArgumentError(name, `expected an integer >= ${min}, got ${String(value)}`);
  }
}

async function runEditorGeneration(
  input: SkillR1GenerationInput,
  state: SkillR1State,
  ports: SkillR1Ports,
): Promise<SkillR1GenerationResult> {
  const g = input.generation;
  checkCount('proposalRetries', input.proposalRetries, 0);
  checkCount('proposalConcurrency', input.proposalConcurrency, 1);
  const { byTask, stats } = await proposeCandidates(
    {
      generation: g,
      tasks: input.tasks,
      candidates: input.candidates,
      rng: input.rng,
      unit: input.unit,
      retries: input.proposalRetries ?? 2,
      concurrency: input.proposalConcurrency ?? 8,
      editorName: input.editor?.name ?? 'the editor',
      ...(input.signal ? { signal: input.signal } : {}),
      state: (taskId) => taskState(state, taskId),
    },
    ports,
  );
  const proposed = (task: Task) => byTask.get(task.id) as ProposedTask;
  const candidatesOf = (task: Task) => proposed(task).proposal.candidates;
  const runs = await ports.runEpisodes({
    tasks: input.tasks,
    // A task without candidates (the `no-skill` fallback) runs one skill-free group.
    skills: (task) => {
      const list = candidatesOf(task);
      return list.length > 0 ? list.map((c) => c.skill) : undefined;
    },
    groupSize: input.episodes,
    seed: input.rng.seedFor(input.unit),
    generation: g,
  });

  // An errored rollout (a model call that failed past its retries, an environment or verifier that threw)
  // measured nothing about the candidate: it is left out of the candidate's mean and counted. A candidate
  // with no other rollout has no score: it is not in the batch, never carried, and not learned from.
  const { scored: scoredRuns, errored: erroredRuns } = splitErrored(runs);
  const all: {
    task: Task;
    candidate: SkillCandidate;
    index: number;
    reward: number;
    runs: Trajectory[];
    errored: number;
    fallback: boolean;
  }[] = [];
  for (const task of input.tasks) {
    const fallback = proposed(task).proposal.fallback === 'current-skill';
    candidatesOf(task).forEach((candidate, index) => {
      const mine = scoredRuns.filter((r) => r.taskId === task.id && r.candidate === index);
      const errored = erroredRuns.filter((r) => r.taskId === task.id && r.candidate === index).length;
      const reward = mine.length > 0 ? mean(mine.map((r) => r.reward)) : Number.NaN;
      all.push({ task, candidate, index, reward, runs: mine, errored, fallback });
    });
  }
  const flat = all.filter((f) => f.runs.length > 0);
  // The method's inputs travel in the batch, so any estimator (a package's too) receives them: per instance
  // the previous generation's mean and the carried skill's mean (the estimator's `interBaseline` picks one),
  // and λ per sample. Vanilla GRPO has no inter-generation term.
  const previousMeans: Record<string, number> = {};
  const carriedMeans: Record<string, number> = {};
  if (input.interGeneration) {
    for (const task of input.tasks) {
      if (candidatesOf(task).length === 0) continue;
      const ts = taskState(state, task.id);
      if (ts.previousMean !== undefined) previousMeans[task.id] = ts.previousMean;
      if (ts.carriedMean !== undefined) carriedMeans[task.id] = ts.carriedMean;
    }
  }
  let advantages: number[] = [];
  let estimatorMetrics: Record<string, number> | undefined;
  if (flat.length > 0) {
    const interGenerationWeights = flat.map(() => input.lambda);
    // Only scored candidates: a batch without NaN scores is safe with any estimator, a package's too.
    const result = ports.estimate({
      scores: flat.map((f) => f.reward),
      groupIds: flat.map((f) => f.task.id),
      instanceIds: flat.map((f) => f.task.id),
      generations: flat.map(() => g),
      interGenerationWeights,
      previousMeans,
      carriedMeans,
    });
    advantages = Array.from(result.advantages);
    estimatorMetrics = result.metrics;
  }
  let trainMetrics: Record<string, number> | undefined;
  // The editor learns from its own candidates and rejected replies (editorUpdateInput). The rejected replies
  // come from the proposal records, which a resumed generation reads back, so the update is the same either way.
  const learned = editorUpdateInput(
    flat.map((f, i) => ({ candidate: f.candidate, advantage: advantages[i] ?? 0, fallback: f.fallback })),
    input.tasks.map((task) => proposed(task).proposal),
  );
  if (input.train && ports.update && learned) {
    trainMetrics = await ports.update(
      learned.rows.map((r) => r.candidate),
      learned.rows.map((r) => r.advantage),
      { rejected: learned.rejected },
    );
  }

  const outcomes: SkillR1TaskOutcome[] = [];
  const unscored: SkillR1UnscoredTask[] = [];
  const groupMeans: number[] = [];
  const signalCounts = {
    groups: 0,
    zeroVarianceGroups: 0,
    candidates: 0,
    identicalCandidates: 0,
    fallbacks: 0,
  };
  for (const task of input.tasks) {
    const { proposal, reused } = proposed(task);
    const ts = taskState(state, task.id);
    // The skill the candidates were proposed from, before this generation carries anything.
    const parent = ts.current;
    const own = proposal.fallback ? [] : candidatesOf(task);
    const identical = own.filter((c) => identicalToParent(c.skill, parent)).length;
    signalCounts.candidates += own.length;
    signalCounts.identicalCandidates += identical;
    if (proposal.fallback) signalCounts.fallbacks++;
    const interBase = ts.previousMean;
    const proposals = {
      calls: proposal.attempts.length,
      failedCalls: proposal.attempts.filter((a) => a.error !== undefined).length,
      rejected: proposal.attempts.reduce((n, a) => n + a.rejections.length, 0),
      reused,
    };
    const rolloutsErrored = erroredRuns.filter((r) => r.taskId === task.id).length;
    const candidates = all.filter((f) => f.task.id === task.id);
    const mine = candidates.filter((f) => f.runs.length > 0);
    if (candidates.length === 0) {
      // No skill to carry and none proposed: the task's episodes ran without one. Their mean is the next
      // generation's A_inter baseline, as s0's would be; the history gets no record (there is no skill).
      const free = scoredRuns.filter((r) => r.taskId === task.id);
      if (free.length === 0) {
        unscored.push({ taskId: task.id, rolloutsErrored, candidates: 0, fallback: 'no-skill', proposals });
        continue;
      }
      const reward = mean(free.map((r) => r.reward));
      groupMeans.push(reward);
      ts.previousMean = reward;
      ts.carriedMean = reward;
      outcomes.push({
        taskId: task.id,
        meanReward: reward,
        bestReward: reward,
        candidates: 0,
        ...(interBase !== undefined ? { inter: reward - interBase } : {}),
        fallback: 'no-skill',
        proposals,
        rolloutsErrored,
        unscoredCandidates: 0,
      });
      continue;
    }
    if (mine.length === 0) {
      // Every candidate's every rollout errored: the current skill stands, the baselines stay those of the
      // last scored generation, and the history gets no record.
      unscored.push({
        taskId: task.id,
        rolloutsErrored,
        candidates: candidates.length,
        ...(proposal.fallback ? { fallback: proposal.fallback } : {}),
        proposals,
      });
      continue;
    }
    const zeroVariance = mine.every((m) => m.reward === (mine[0] as (typeof mine)[number]).reward);
    signalCounts.groups++;
    if (zeroVariance) signalCounts.zeroVarianceGroups++;
    const chosen = carry(input, mine, task.id);
    const genMean = mean(mine.map((m) => m.reward));
    groupMeans.push(...mine.map((m) => m.reward));
    const record = recordFor(
      g,
      chosen.candidate.skill,
      chosen.reward,
      mine.flatMap((m) => m.runs),
    );
    record.candidates = mine.map((m) => ({ skill: m.candidate.skill, reward: m.reward }));
    ts.history.push(record);
    ts.current = chosen.candidate.skill;
    ts.previousMean = genMean;
    ts.carriedMean = chosen.reward;
    outcomes.push({
      taskId: task.id,
      skill: chosen.candidate.skill,
      meanReward: genMean,
      bestReward: chosen.reward,
      candidates: mine.length,
      ...(interBase !== undefined ? { inter: genMean - interBase } : {}),
      ...(proposal.fallback ? { fallback: proposal.fallback } : {}),
      proposals,
      rolloutsErrored,
      unscoredCandidates: candidates.length - mine.length,
      signal: { candidates: own.length, identicalCandidates: identical, zeroVariance },
    });
  }
  const counts = {
    rolloutsErrored: erroredRuns.length,
    unscoredCandidates: all.length - flat.length,
    ...(unscored.length > 0 ? { unscored } : {}),
  };
  const generationMean = groupMeans.length > 0 ? mean(groupMeans) : undefined;
  // Nothing scored: a hole in generationMeans rather than a made-up 0.
  if (generationMean !== undefined) state.generationMeans[g] = generationMean;
  return {
    state,
    tasks: outcomes,
    ...counts,
    advantages: flat.map((f, i) => ({
      taskId: f.task.id,
      candidate: f.index,
      reward: f.reward,
      advantage: advantages[i] ?? 0,
      ...(f.fallback ? { fallback: true as const } : {}),
      ...(f.errored > 0 ? { errored: f.errored } : {}),
    })),
    ...(estimatorMetrics ? { estimatorMetrics } : {}),
    ...(trainMetrics ? { trainMetrics } : {}),
    ...(generationMean !== undefined ? { mean: generationMean } : {}),
    proposals: stats,
    signal: generationSignal(signalCounts, input.train ? trainMetrics : undefined),
  };
}
