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

// Two-sided 95 % quantiles of Student's t for 1–30 degrees of freedom; beyond, the normal's 1.96 is within
// 2 % of the exact value.
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
export const t95 = (df: number): number => (df >= 1 && df <= 30 ? (T95[df - 1] as number) : 1.96);

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
  const mean = diffs.reduce((s, d) => s + d, 0) / n;
  const sd = Math.sqrt(diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  const lower = mean - half;
  const upper = mean + half;
  const verdict = lower > 0 ? 'ahead' : upper < 0 ? 'behind' : 'a tie';
  return { tasks: n, difference: mean, lower, upper, onlyA, onlyB, verdict };
}
