import type {
  AdvantageBatch,
  AdvantageResult,
  CurriculumController,
  CurriculumState,
  TrainBatch,
  TrainMetrics,
  Trajectory,
  ValidationResult,
} from '@skillrl/core';
import { InvalidArgumentError, splitErrored, stateKeyOf, stepRewardsOf } from '@skillrl/core';
import {
  attributionStrengthsOf,
  planSkillcStep,
  type SkillcStepInput,
  type SkillcStepPlan,
} from './plan-skillc-step.js';
import {
  groupHasSignal,
  groupsByTask,
  type SignalMetric,
  type StepSignal,
  stepSignal,
} from './step-signal.js';

/**
 * What one SKILLC step needs from outside: rollouts, the estimator, the trainer, a paired validation, and a
 * place to store the advantages. The step decides nothing about how those run (processes, HTTP, tfjs).
 */
export interface SkillcStepPorts {
  /** Runs the plan's groups (`@skillrl/rollout`'s planner lays them out) and returns their trajectories. */
  runEpisodes(plan: SkillcStepPlan): Promise<Trajectory[]>;
  /** Scores the batch: the `skillc` dual-stream estimator, or any other. A fresh estimator per call. */
  estimate(batch: AdvantageBatch): AdvantageResult;
  /**
   * Receives the advantage of every rollout the update trains on, before the update (store them here: a
   * replayed run reads them back), with the step-level ones when the estimator gives them (GiGPO). Errored
   * rollouts and the groups dynamic sampling dropped are not among `runs`.
   */
  onAdvantages?(
    runs: readonly Trajectory[],
    advantages: readonly number[],
    stepAdvantages?: readonly (readonly number[] | undefined)[],
  ): void | Promise<void>;
  /** One policy update (`PolicyTrainer.update`). */
  update(batch: TrainBatch): Promise<TrainMetrics>;
  /** A paired validation after step `step` (with and without each type's skill), when one is due. */
  validate(step: number): Promise<ValidationResult>;
}

export interface RunSkillcStepInput extends Omit<SkillcStepInput, 'state'> {
  /** The run's curriculum: its state plans the step, and it reads the step's validation when one is due. */
  curriculum: CurriculumController;
  /** The run's last step: it always ends with a validation (the curriculum does not read an off-schedule one). */
  totalSteps: number;
  /** d: validations every d steps, the ones the curriculum reads. */
  validateEvery: number;
  /**
   * DAPO's dynamic sampling (arXiv 2503.14476; verl's `algorithm.filter_groups`): groups whose rollouts all
   * score alike are dropped, and the step samples further batches of fresh tasks until `tasksPerStep` groups
   * with signal are kept (the first ones, as verl truncates) or `maxBatches` batches ran; then it trains on
   * what it kept. Off when absent.
   */
  dynamicSampling?: DynamicSampling;
}

export interface DynamicSampling {
  /** Generation batches at most, the step's own included (verl's `max_num_gen_batches`); an integer >= 1. */
  maxBatches: number;
  /** What must vary within a kept group: `score` (default; verl `metric: score`) or `success` (`acc`). */
  metric?: SignalMetric;
}

/** The step's success rates and sizes, for the run's `step` event (the estimator's and trainer's beside). */
export interface SkillcStepMetrics {
  [name: string]: number;
  success: number;
  success_with: number;
  success_without: number;
  /** Share of the step's rollouts that carried a skill. */
  share_with: number;
  /** Skill types still active when the step was planned. */
  active: number;
  /** Rollouts that ended in an error: left out of the batch, the update and every rate above. */
  rollouts_errored: number;
  /** Groups the update learned from, how many of them had rollouts that all scored alike, and that share. */
  signal_groups: number;
  signal_zero_variance_groups: number;
  signal_zero_variance_share: number;
  /** 1 when the update moved nothing (gradient norm 0, or nothing trained). */
  signal_zero_update: number;
  /** 1 when the step's signal was void (see `SkillcStepResult.signal.void`). */
  signal_void: number;
}

export interface SkillcStepResult {
  /** The step's own batch plan (batch 0); refills of dynamic sampling have their own (`plans`). */
  plan: SkillcStepPlan;
  /** Every batch the step ran, the step's own first. */
  plans: SkillcStepPlan[];
  /** The curriculum's state the step was planned from. */
  state: CurriculumState;
  /** The rollouts the update trained on, in batch order: no errored one, no dropped group. */
  runs: Trajectory[];
  /** Every rollout the step ran (errored ones and dropped groups included). */
  ran: Trajectory[];
  /** Rollouts left out because they errored. */
  errored: Trajectory[];
  advantages: number[];
  /** Step-level advantages of `runs` when the estimator gave them (GiGPO). */
  stepAdvantages?: (number[] | undefined)[];
  /** What the update had to learn from (the no-signal guard reads `signal.void`). */
  signal: StepSignal;
  /** Dynamic sampling's account, when it was on. */
  sampling?: { batches: number; keptGroups: number; droppedGroups: number };
  metrics: SkillcStepMetrics;
  /** What the estimator reported (its `metrics`), unprefixed. */
  estimatorMetrics: Record<string, number>;
  /** What the trainer reported, unprefixed. */
  trainMetrics: TrainMetrics;
  /** The validation after the step, when one was due, and the curriculum's state after it. */
  validation?: { result: ValidationResult; curriculum: CurriculumState; observed: boolean };
}

/** Validations run every d steps and after the last one; `step` 0 (before any update) is the caller's. */
export function skillcValidationDue(step: number, validateEvery: number, totalSteps: number): boolean {
  return step % validateEvery === 0 || step === totalSteps;
}

const rate = (xs: readonly Trajectory[]): number =>
  xs.length ? xs.filter((t) => t.verdict.passed).length / xs.length : 0;

/**
 * One SKILLC training step (arXiv 2605.27899), the method's body: plan it from the curriculum's state (tasks,
 * each group's skill and ρ_k, λ_k), run the groups, score them with λ_k per sample in the batch's
 * `attributionStrengths`, update the policy, and every d steps validate and let the curriculum read it (λ, ρ,
 * retirement). The baselines are this step under another curriculum (GRPO: static ρ = 0; D2Skill: ρ = 0.5;
 * SKILL0's schedule). The orchestrator supplies the ports and persists what comes back.
 */
export async function runSkillcStep(
  input: RunSkillcStepInput,
  ports: SkillcStepPorts,
): Promise<SkillcStepResult> {
  const { curriculum, totalSteps, validateEvery } = input;
  if (!Number.isInteger(validateEvery) || validateEvery < 1) {
    throw new InvalidArgumentError(
      'validateEvery',
      `expected an integer >= 1 (validations every d steps), got ${String(validateEvery)}`,
    );
  }
  const sampling = input.dynamicSampling;
  if (
    sampling !== undefined &&
    (!Number.isInteger(sampling.maxBatches) || (sampling.maxBatches as number) < 1)
  ) {
    throw new InvalidArgumentError(
      'dynamicSampling.maxBatches',
      `expected an integer >= 1 (generation batches at most, the step's own included), got ${String(sampling.maxBatches)}`,
    );
  }
  const state = curriculum.state();
  const metric = sampling?.metric ?? 'score';
  const plans: SkillcStepPlan[] = [];
  const ran: Trajectory[] = [];
  // Without dynamic sampling every scored group is kept; with it, only groups with signal, the first ones.
  const kept: Trajectory[][] = [];
  let dropped = 0;
  const used = new Set<string>();
  for (let batch = 0; batch < (sampling?.maxBatches ?? 1); batch++) {
    const plan = planSkillcStep({ ...input, state, batch, exclude: used });
    if (plan.groups.length === 0) break;
    plans.push(plan);
    for (const g of plan.groups) used.add(g.task.id);
    const runs = await ports.runEpisodes(plan);
    ran.push(...runs);
    for (const group of groupsByTask(splitErrored(runs).scored)) {
      if (!sampling || groupHasSignal(group, metric)) kept.push(group);
      else dropped++;
    }
    if (!sampling || kept.length >= input.tasksPerStep) break;
  }
  // verl keeps the first train_batch_size groups when refills overshoot.
  if (sampling && kept.length > input.tasksPerStep) dropped += kept.length - input.tasksPerStep;
  const runs = (sampling ? kept.slice(0, input.tasksPerStep) : kept).flat();
  // The errored-rollout policy (core): an errored rollout measured nothing, so it is in no batch, no
  // estimate, no update and no rate; it is counted instead.
  const { scored: scoredRan, errored } = splitErrored(ran);
  // Batch order: the planned order of the trained rollouts (groups were collected in it).
  const order = new Map(ran.map((t, i) => [t.id, i]));
  runs.sort((a, b) => (order.get(a.id) as number) - (order.get(b.id) as number));
  const plan = plans[0] as SkillcStepPlan;
  // λ_k per sample travels in the batch (0 for a retired type), so a package's estimator receives it too.
  const attributionStrengths = attributionStrengthsOf(
    plan,
    runs.map((r) => r.family),
  );
  // Nothing left to learn from (every rollout errored, or dynamic sampling kept no group): no estimate and no
  // update — a trainer given an empty batch may well refuse it — and the step's signal says so.
  const result =
    runs.length === 0
      ? { advantages: new Float64Array(0), metrics: {} }
      : ports.estimate({
          attributionStrengths,
          scores: runs.map((r) => r.reward),
          groupIds: runs.map((r) => r.taskId),
          instanceIds: runs.map((r) => r.taskId),
          conditions: runs.map((r) => r.condition),
          families: runs.map((r) => r.family),
          successes: runs.map((r) => r.verdict.passed),
          lengths: runs.map((r) => r.steps.length),
          // Step-level credit's inputs (GiGPO): each step's reward and the state it acted from.
          stepRewards: runs.map(stepRewardsOf),
          stepKeys: runs.map((r) => r.steps.map(stateKeyOf)),
        });
  const advantages = runs.map((_, i) => result.advantages[i] ?? 0);
  const stepAdvantages = result.stepAdvantages
    ? runs.map((_, i) => {
        const a = result.stepAdvantages?.[i];
        return a ? Array.from(a) : undefined;
      })
    : undefined;
  await ports.onAdvantages?.(runs, advantages, stepAdvantages);
  const trainMetrics =
    runs.length === 0
      ? { episodes: 0 }
      : await ports.update({
          trajectories: runs,
          advantages,
          ...(stepAdvantages ? { stepAdvantages } : {}),
        });
  const signal = stepSignal(runs, trainMetrics, metric);
  const withSkill = scoredRan.filter((r) => r.condition === 1);
  const without = scoredRan.filter((r) => r.condition === 0);
  const out: SkillcStepResult = {
    plan,
    plans,
    state,
    runs,
    ran,
    errored,
    advantages,
    ...(stepAdvantages ? { stepAdvantages } : {}),
    signal,
    metrics: {
      success: rate(scoredRan),
      success_with: rate(withSkill),
      success_without: rate(without),
      share_with: scoredRan.length ? withSkill.length / scoredRan.length : 0,
      active: state.active.length,
      rollouts_errored: errored.length,
      signal_groups: signal.groups,
      signal_zero_variance_groups: signal.zeroVarianceGroups,
      signal_zero_variance_share: signal.groups ? signal.zeroVarianceGroups / signal.groups : 0,
      signal_zero_update: signal.zeroUpdate ? 1 : 0,
      signal_void: signal.void ? 1 : 0,
    },
    estimatorMetrics: result.metrics,
    trainMetrics,
  };
  if (sampling) {
    out.sampling = {
      batches: plans.length,
      keptGroups: Math.min(kept.length, input.tasksPerStep),
      droppedGroups: dropped,
    };
    out.metrics.ds_batches = plans.length;
    out.metrics.ds_kept_groups = out.sampling.keptGroups;
    out.metrics.ds_dropped_groups = dropped;
  }
  if (skillcValidationDue(input.step, validateEvery, totalSteps)) {
    const validation = await ports.validate(input.step);
    // The curriculum reads validations on its own schedule (every d steps), not the final extra one.
    const observed = input.step % validateEvery === 0;
    out.validation = {
      result: validation,
      curriculum: observed ? curriculum.observe(validation) : curriculum.state(),
      observed,
    };
  }
  return out;
}
