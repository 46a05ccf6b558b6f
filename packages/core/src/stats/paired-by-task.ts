import { tInterval } from './paired-stats.js';

/** One run's held-out test outcomes (summary.json's `testOutcomes`): success per task id and side. */
export type TestOutcomes = Record<string, { with: number | null; without: number | null }>;

export interface PairedDifference {
  /** Tasks both runs tested without skills. */
  tasks: number;
  /** Mean of (a − b) over those tasks: a's skill-free success minus b's. */
  difference: number;
  /** 95 % interval of the mean difference (paired t over tasks). */
  lower: number;
  upper: number;
  /** Tasks only a solved, only b solved (skill-free, one episode each). */
  onlyA: number;
  onlyB: number;
  /** In words: "ahead", "behind" or "a tie" (the interval contains 0). */
  verdict: 'ahead' | 'behind' | 'a tie';
}

/**
 * a − b on the held-out tasks both runs tested, paired by task, without skills: the same tasks, so task
 * difficulty cancels and the interval is about the policies. It is one seed's comparison; the spread over
 * seeds (bench:paper's paired intervals) is larger.
 */
export function pairedByTask(a: TestOutcomes, b: TestOutcomes): PairedDifference | undefined {
  const diffs: number[] = [];
  let onlyA = 0;
  let onlyB = 0;
  for (const [id, x] of Object.entries(a)) {
    const y = b[id];
    if (x.without === null || y === undefined || y.without === null) continue;
    const d = x.without - y.without;
    diffs.push(d);
    if (d > 0) onlyA++;
    if (d < 0) onlyB++;
  }
  const n = diffs.length;
  if (n < 2) return undefined;
  const { mean, lo: lower, hi: upper } = tInterval(diffs);
  const verdict = lower > 0 ? 'ahead' : upper < 0 ? 'behind' : 'a tie';
  return { tasks: n, difference: mean, lower, upper, onlyA, onlyB, verdict };
}
