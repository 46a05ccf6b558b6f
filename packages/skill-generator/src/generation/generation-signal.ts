import { formatSkill, type Skill } from '@skillrl/core';

/**
 * What a Skill-R1 generation's update had to learn from, counted where the no-signal guard reads it (the
 * run's `generation` events and summary): an "evolved" skill byte-identical to its parent (an editor that
 * returns its input: hermes-agent-self-evolution PRs 109 and 155, ax #545) teaches nothing, nor does a task
 * whose candidates all scored alike (zero advantage), nor a fallback (not the editor's output).
 */
export interface GenerationSignal {
  /** Tasks with at least one scored candidate (a group of the estimator's batch). */
  groups: number;
  /** Of those, tasks whose scored candidates all have the same mean reward (one candidate included). */
  zeroVarianceGroups: number;
  /** The editor's own candidates (fallbacks not counted). */
  candidates: number;
  /** Of those, candidates whose SKILL.md is byte-identical to the skill they were proposed from. */
  identicalCandidates: number;
  /** Tasks that fell back (the editor gave nothing valid). */
  fallbacks: number;
  /** The editor's update moved nothing (gradient norm 0, or nothing trained), when it trained. */
  zeroUpdate: boolean;
  /** Why the generation's signal is void, in words; absent when it carried any. */
  void?: string;
}

/** Whether `candidate` is its parent again, byte for byte, as SKILL.md (no parent: never). */
export function identicalToParent(candidate: Skill, parent: Skill | undefined): boolean {
  return parent !== undefined && formatSkill(candidate) === formatSkill(parent);
}

/** The generation's verdict from its counts and the editor update's metrics (absent: it did not train). */
export function generationSignal(
  counts: Omit<GenerationSignal, 'zeroUpdate' | 'void'>,
  trainMetrics: Record<string, number> | undefined,
): GenerationSignal {
  // The metrics trainers report (core's `PolicyTrainer`): a zero gradient norm, or nothing trained.
  const zero = (value: unknown) => typeof value === 'number' && value === 0;
  const zeroUpdate =
    trainMetrics !== undefined &&
    (zero(trainMetrics.grad_norm) || zero(trainMetrics.episodes) || zero(trainMetrics.datums));
  const signal: GenerationSignal = { ...counts, zeroUpdate };
  if (counts.groups === 0) {
    signal.void =
      counts.fallbacks > 0 && counts.candidates === 0
        ? 'every task fell back (the editor gave no valid candidate) and nothing was scored'
        : 'no candidate to learn from (every rollout errored)';
  } else if (counts.candidates > 0 && counts.identicalCandidates === counts.candidates) {
    signal.void = `every candidate was byte-identical to the skill it was proposed from (${counts.candidates} of ${counts.candidates})`;
  } else if (counts.candidates === 0) {
    signal.void = `every task fell back (the editor gave no valid candidate): nothing of the editor's to learn from`;
  } else if (counts.zeroVarianceGroups === counts.groups) {
    signal.void = `every task's candidates scored alike (all ${counts.groups} groups zero-variance)`;
  } else if (zeroUpdate) {
    signal.void = "the editor's update was zero (gradient norm 0, or nothing trained)";
  }
  return signal;
}
