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
import { InvalidArgumentError } from '@skillrl/core';
import {
  attributionStrengthsOf,
  planSkillcStep,
  type SkillcStepInput,
  type SkillcStepPlan,
} from './plan-skillc-step.js';

/**
 * What one SKILLC step needs from outside: rollouts, the estimator, the trainer, a paired validation, and a
 * place to store the advantages. The step decides nothing about how those run (processes, HTTP, tfjs).
 */
export interface SkillcStepPorts {
  /** Runs the plan's groups (`@skillrl/rollout`'s planner lays them out) and returns their trajectories. */
  runEpisodes(plan: SkillcStepPlan): Promise<Trajectory[]>;
  /** Scores the batch: the `skillc` dual-stream estimator, or any other. A fresh estimator per call. */
  estimate(batch: AdvantageBatch): AdvantageResult;
  /** Receives every rollout's advantage before the update (store them here: a replayed run reads them back). */
  onAdvantages?(runs: readonly Trajectory[], advantages: readonly number[]): void | Promise<void>;
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
}

export interface SkillcStepResult {
  plan: SkillcStepPlan;
  /** The curriculum's state the step was planned from. */
  state: CurriculumState;
  runs: Trajectory[];
  advantages: number[];
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
  const state = curriculum.state();
  const plan = planSkillcStep({ ...input, state });
  const runs = await ports.runEpisodes(plan);
  // λ_k per sample travels in the batch (0 for a retired type), so a package's estimator receives it too.
  const attributionStrengths = attributionStrengthsOf(
    plan,
    runs.map((r) => r.family),
  );
  const result = ports.estimate({
    attributionStrengths,
    // Deprecated copy, for an estimator written against @skillrl/core 0.1; removed with `lambdas`.
    lambdas: attributionStrengths,
    scores: runs.map((r) => r.reward),
    groupIds: runs.map((r) => r.taskId),
    instanceIds: runs.map((r) => r.taskId),
    conditions: runs.map((r) => r.condition),
    families: runs.map((r) => r.family),
    successes: runs.map((r) => r.verdict.passed),
    lengths: runs.map((r) => r.steps.length),
  });
  const advantages = runs.map((_, i) => result.advantages[i] ?? 0);
  await ports.onAdvantages?.(runs, advantages);
  const trainMetrics = await ports.update({ trajectories: runs, advantages });
  const withSkill = runs.filter((r) => r.condition === 1);
  const without = runs.filter((r) => r.condition === 0);
  const out: SkillcStepResult = {
    plan,
    state,
    runs,
    advantages,
    metrics: {
      success: rate(runs),
      success_with: rate(withSkill),
      success_without: rate(without),
      share_with: runs.length ? withSkill.length / runs.length : 0,
      active: state.active.length,
    },
    estimatorMetrics: result.metrics,
    trainMetrics,
  };
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
