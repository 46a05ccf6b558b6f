import type { Skill, Task } from '@skillrl/core';
import type { HistorySummary } from '../history/summarize-history.js';
import { fnv1a, type StepIndex } from './step-index.js';
import { readNumberedSteps } from './step-skill.js';

/** Scalar history features, in order (see `encodeContext`). */
export const HISTORY_SCALARS = [
  'has_history',
  'last_reward',
  'best_reward',
  'mean_window_reward',
  'trend',
  'failure_rate',
  'failing_step',
] as const;

export interface ContextLayout {
  families: number;
  goalBuckets: number;
  steps: number;
  failureBuckets: number;
  /** Total length of the context vector. */
  size: number;
}

export function contextLayout(index: StepIndex, goalBuckets: number, failureBuckets: number): ContextLayout {
  const families = index.families.length + 1;
  const steps = index.steps.length;
  return {
    families,
    goalBuckets,
    steps,
    failureBuckets,
    size: families + goalBuckets + HISTORY_SCALARS.length + 3 * steps + failureBuckets,
  };
}

/** Lower-case words of a text, hashed into `buckets` counts and scaled to unit length. */
export function hashWords(text: string, buckets: number, into: Float32Array, offset: number): void {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let sq = 0;
  const counts = new Float32Array(buckets);
  for (const w of words) counts[fnv1a(w) % buckets] = (counts[fnv1a(w) % buckets] as number) + 1;
  for (const c of counts) sq += c * c;
  const norm = sq > 0 ? Math.sqrt(sq) : 1;
  for (let i = 0; i < buckets; i++) into[offset + i] = (counts[i] as number) / norm;
}

/** The vocabulary ids of a skill's numbered steps that match a phrase (others, like hand-written principles, are skipped). */
export function skillStepIds(skill: Skill | undefined, index: StepIndex): number[] {
  if (skill === undefined) return [];
  const ids: number[] = [];
  for (const line of readNumberedSteps(skill.body)) {
    const id = index.idOf(line);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/**
 * The context vector the editor conditions on, `layout.size` long:
 * family one-hot (last slot: a family the vocabulary lacks) · hashed goal words · history scalars
 * (`HISTORY_SCALARS`) · per step: in the current skill, in the best skill, reward credit (mean reward of the
 * window's skills that contain it minus the window's mean) · hashed words of failed episodes' verifier
 * reasons and last observations.
 */
export function encodeContext(
  task: Pick<Task, 'family' | 'prompt'>,
  summary: HistorySummary,
  currentSkill: Skill | undefined,
  index: StepIndex,
  layout: ContextLayout,
): Float32Array {
  const v = new Float32Array(layout.size);
  let o = 0;
  const family = index.families.indexOf(task.family);
  v[o + (family >= 0 ? family : layout.families - 1)] = 1;
  o += layout.families;
  hashWords(task.prompt, layout.goalBuckets, v, o);
  o += layout.goalBuckets;

  const windowRewards = summary.rewards.map((r) => r.reward);
  const episodes = summary.failures.count + summary.successes.count;
  const scalars = [
    summary.generations > 0 ? 1 : 0,
    summary.lastReward ?? 0,
    summary.bestReward ?? 0,
    windowRewards.length > 0 ? windowRewards.reduce((s, x) => s + x, 0) / windowRewards.length : 0,
    summary.trend,
    episodes > 0 ? summary.failures.count / episodes : 0,
    // Squashed to [0, 1): early failures and late ones differ most where it matters, in the first steps.
    summary.failures.meanFailingStep !== undefined
      ? summary.failures.meanFailingStep / (summary.failures.meanFailingStep + 5)
      : 0,
  ];
  for (const s of scalars) v[o++] = s;

  const current = skillStepIds(currentSkill ?? summary.last?.skill, index);
  for (const id of current) v[o + id] = 1;
  o += layout.steps;
  for (const id of skillStepIds(summary.best?.skill, index)) v[o + id] = 1;
  o += layout.steps;
  if (summary.skills.length > 0) {
    const mean = summary.skills.reduce((s, k) => s + k.reward, 0) / summary.skills.length;
    const sum = new Float64Array(layout.steps);
    const count = new Float64Array(layout.steps);
    for (const k of summary.skills) {
      for (const id of new Set(skillStepIds(k.skill, index))) {
        sum[id] = (sum[id] as number) + k.reward;
        count[id] = (count[id] as number) + 1;
      }
    }
    for (let id = 0; id < layout.steps; id++) {
      const c = count[id] as number;
      if (c > 0) v[o + id] = (sum[id] as number) / c - mean;
    }
  }
  o += layout.steps;
  const failureText = summary.failures.examples
    .map((e) => `${e.reason ?? ''} ${e.lastObservation ?? ''}`)
    .join(' ');
  hashWords(failureText, layout.failureBuckets, v, o);
  return v;
}
