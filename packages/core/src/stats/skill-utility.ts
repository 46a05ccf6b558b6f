import type { Trajectory } from '../contracts/trajectory.js';
import { rolloutErrored } from '../trajectory/errored-rollouts.js';
import { tInterval } from './paired-stats.js';

/**
 * A skill's measured utility: success with it and without it on the same tasks, paired by task (the mean of
 * each task's with − without success rate), with a Student's t interval over the task pairs. SKILLC's
 * curriculum reads the same quantity per family (its paired validation); `skillrl skills test` measures it on
 * any config's tasks.
 */
export interface SkillUtility {
  /** Where the episodes came from: a split, or a run's unit (`v40`, `final`). */
  split: string;
  /** Success rates over the paired tasks' scored episodes. */
  withSkill: number;
  withoutSkill: number;
  /** Mean paired difference, with − without, over tasks. */
  gap: number;
  /** 95 % Student's t interval of the gap over the task pairs (NaN with fewer than two pairs). */
  lo: number;
  hi: number;
  /**
   * What the interval is over: the tasks with scored episodes under both conditions (`task`), or, when only
   * one task has both (evolve's skills are each a task's own), that task's episodes, the i-th with against the
   * i-th without (`episode`; the two arms are independent draws, so this is a two-sample interval).
   */
  pairedBy: 'task' | 'episode';
  /** Pairs behind the interval (tasks, or episode pairs of the one task). */
  pairs: number;
  /** Scored episodes behind the rates (errored ones excluded, counted apart). */
  episodes: number;
  errored: number;
}

const rate = (xs: readonly Trajectory[]) =>
  xs.length === 0 ? Number.NaN : xs.filter((t) => t.verdict.passed).length / xs.length;

/**
 * The utility measured by with (z = 1) and without (z = 0) episodes of the same tasks. Errored episodes are
 * left out (counted); a task missing either condition is not a pair. Undefined when no task has both.
 */
export function pairedUtility(runs: readonly Trajectory[], split: string): SkillUtility | undefined {
  const scored = runs.filter((t) => !rolloutErrored(t));
  const byTask = new Map<string, { with: Trajectory[]; without: Trajectory[] }>();
  for (const t of scored) {
    const entry = byTask.get(t.taskId) ?? { with: [], without: [] };
    (t.condition === 1 ? entry.with : entry.without).push(t);
    byTask.set(t.taskId, entry);
  }
  const pairs = [...byTask.values()].filter((e) => e.with.length > 0 && e.without.length > 0);
  if (pairs.length === 0) return undefined;
  const only = pairs.length === 1 ? pairs[0] : undefined;
  const byEpisode = only !== undefined && Math.min(only.with.length, only.without.length) >= 2;
  const diffs = byEpisode ? episodeDiffs(only) : pairs.map((e) => rate(e.with) - rate(e.without));
  const ci = tInterval(diffs);
  const withRuns = pairs.flatMap((e) => e.with);
  const withoutRuns = pairs.flatMap((e) => e.without);
  return {
    split,
    withSkill: rate(withRuns),
    withoutSkill: rate(withoutRuns),
    // With unequal arms the mean of episode pairs leaves the extra episodes out; the gap is still the rates'.
    gap: byEpisode ? rate(withRuns) - rate(withoutRuns) : ci.mean,
    lo: ci.lo,
    hi: ci.hi,
    pairedBy: byEpisode ? 'episode' : 'task',
    pairs: diffs.length,
    episodes: withRuns.length + withoutRuns.length,
    errored: runs.length - scored.length,
  };
}

// `…:i10` after `…:i9`: the plan's episode index, not the string order.
const byIndex = (a: Trajectory, b: Trajectory) => a.id.localeCompare(b.id, 'en', { numeric: true });

/** One task's i-th episode with the skill against its i-th without (ids sorted: the plan's order). */
function episodeDiffs(e: { with: Trajectory[]; without: Trajectory[] }): number[] {
  const w = [...e.with].sort(byIndex);
  const wo = [...e.without].sort(byIndex);
  const n = Math.min(w.length, wo.length);
  return Array.from({ length: n }, (_, i) => Number(w[i]?.verdict.passed) - Number(wo[i]?.verdict.passed));
}

/** The utility as SKILL.md `metadata` values (strings, as the Agent Skills spec requires). */
export function utilityMetadata(u: SkillUtility): Record<string, string> {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : 'nan');
  return {
    'skillrl-utility-split': u.split,
    'skillrl-utility-with': f(u.withSkill),
    'skillrl-utility-without': f(u.withoutSkill),
    'skillrl-utility-gap': f(u.gap),
    'skillrl-utility-ci95': `${f(u.lo)} ${f(u.hi)}`,
    'skillrl-utility-pairs': String(u.pairs),
    'skillrl-utility-paired-by': u.pairedBy,
    'skillrl-utility-episodes': String(u.episodes),
  };
}
