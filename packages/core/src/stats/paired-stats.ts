import { createRng } from '../rng/create-rng.js';

// Statistics for paired comparisons (bench tables over a handful of seeds, a skill's with/without utility
// paired by task): mean ± standard error, Student's t interval, and the
// paired difference of two rows by seed (the same seed is the same task pool, test split and initial weights,
// so seed-to-seed spread cancels in the difference). Plain functions on arrays, no state but a seeded RNG for
// the bootstrap.

export const mean = (xs: readonly number[]): number =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function sd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Standard error of the mean; 0 for fewer than two values. */
export const se = (xs: readonly number[]): number => (xs.length < 2 ? 0 : sd(xs) / Math.sqrt(xs.length));

export const finite = (xs: readonly unknown[]): number[] =>
  xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));

// ln Γ(x) by Lanczos (g = 7, nine coefficients): ~15 significant digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0] as number;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += (LANCZOS[i] as number) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

// Continued fraction of the incomplete beta function (modified Lentz).
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(x, a, b)) / a
    : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function tCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The p-quantile of Student's t with `df` degrees of freedom (p in (0, 1)), by bisection on `tCdf`: exact to
 * ~1e-12, e.g. tQuantile(0.975, 4) = 2.7764451.
 */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`tQuantile: expected 0 < p < 1, got ${p}`);
  if (!(df > 0)) throw new RangeError(`tQuantile: expected df > 0, got ${df}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  let lo = 0;
  let hi = 1;
  while (tCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Mean and Student's t interval of `xs` at `level` (default 0.95): mean ± t(1 − α/2, n − 1) · SE. With fewer
 * than two values the interval is unknown (NaN), never zero-width.
 */
export function tInterval(
  xs: readonly number[],
  level = 0.95,
): { n: number; mean: number; se: number; lo: number; hi: number } {
  const n = xs.length;
  const m = mean(xs);
  if (n < 2) return { n, mean: m, se: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const half = tQuantile(1 - (1 - level) / 2, n - 1) * se(xs);
  return { n, mean: m, se: se(xs), lo: m - half, hi: m + half };
}

/**
 * The pairs of two rows' values that share a seed and are both finite: `a` and `b` map seed → value (a Map or
 * an array of [seed, value]). Returns the seeds in ascending order and the differences a − b.
 */
export type Keyed = Map<number, number> | readonly (readonly [number, number])[];

export function pairBySeed(a: Keyed, b: Keyed): { seeds: number[]; differences: number[] } {
  const right = new Map(b as Iterable<[number, number]>);
  const seeds: number[] = [];
  const differences: number[] = [];
  for (const [seed, x] of [...new Map(a as Iterable<[number, number]>)].sort((p, q) => p[0] - q[0])) {
    const y = right.get(seed);
    if (!Number.isFinite(x) || y === undefined || !Number.isFinite(y)) continue;
    seeds.push(seed);
    differences.push(x - y);
  }
  return { seeds, differences };
}

/** "ahead" / "behind" when the interval excludes 0, "tie" when it contains 0, "unknown" without one. */
export type Verdict = 'ahead' | 'behind' | 'tie' | 'unknown';

export function verdict(lo: number, hi: number): Verdict {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'unknown';
  if (lo > 0) return 'ahead';
  if (hi < 0) return 'behind';
  return 'tie';
}

/**
 * The paired difference a − b by seed: its mean, Student's t interval over the n pairs (n − 1 df), how many
 * seeds a is ahead / behind / level, and the verdict on the interval (a difference whose interval contains 0
 * is a tie, not a win).
 */
export function pairedDifference(a: Keyed, b: Keyed, level = 0.95) {
  const { seeds, differences } = pairBySeed(a, b);
  const ci = tInterval(differences, level);
  return {
    seeds,
    differences,
    n: ci.n,
    mean: ci.mean,
    lo: ci.lo,
    hi: ci.hi,
    ahead: differences.filter((d) => d > 0).length,
    behind: differences.filter((d) => d < 0).length,
    verdict: verdict(ci.lo, ci.hi),
  };
}

/**
 * Percentile interval of the mean paired difference from `resamples` bootstrap resamples of the seeds (pairs
 * kept together), seeded. With five seeds there are only 126 distinct resamples and the interval is too narrow
 * (it ignores the n − 1 correction): the t interval is the one verdicts use; this one is a cross-check.
 */
export function pairedBootstrap(
  a: Keyed,
  b: Keyed,
  { level = 0.95, resamples = 10_000, seed = 1 }: { level?: number; resamples?: number; seed?: number } = {},
): { n: number; mean: number; lo: number; hi: number } {
  const { differences } = pairBySeed(a, b);
  const n = differences.length;
  if (n < 2) return { n, mean: mean(differences), lo: Number.NaN, hi: Number.NaN };
  const rng = createRng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += differences[Math.floor(rng.float() * n)] as number;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number) =>
    means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))] as number;
  const alpha = (1 - level) / 2;
  return { n, mean: mean(differences), lo: at(alpha), hi: at(1 - alpha) };
}

/** One seed's outcomes per task (task id → success, 0..1): a run's held-out test without skills. */
export type TaskOutcomes = Map<string, number> | Readonly<Record<string, number>>;
/** Seed → that seed's task outcomes. */
export type SeededTaskOutcomes = Map<number, TaskOutcomes> | readonly (readonly [number, TaskOutcomes])[];

const entriesOf = (o: TaskOutcomes): [string, number][] =>
  o instanceof Map ? [...o] : (Object.entries(o) as [string, number][]);

/**
 * The pairs of two methods' outcomes on the same tasks of the same seeds (same seed = same test tasks): per
 * shared seed, the per-task differences a − b on the tasks both scored (finite), seeds in ascending order.
 */
export function pairByTask(
  a: SeededTaskOutcomes,
  b: SeededTaskOutcomes,
): { seeds: number[]; differences: number[][] } {
  const right = new Map(b as Iterable<[number, TaskOutcomes]>);
  const seeds: number[] = [];
  const differences: number[][] = [];
  for (const [seed, outcomes] of [...new Map(a as Iterable<[number, TaskOutcomes]>)].sort(
    (p, q) => p[0] - q[0],
  )) {
    const other = right.get(seed);
    if (other === undefined) continue;
    const y = new Map(entriesOf(other));
    const d: number[] = [];
    for (const [task, x] of entriesOf(outcomes).sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0))) {
      const v = y.get(task);
      if (Number.isFinite(x) && v !== undefined && Number.isFinite(v)) d.push(x - v);
    }
    if (d.length === 0) continue;
    seeds.push(seed);
    differences.push(d);
  }
  return { seeds, differences };
}

/**
 * Percentile interval of the mean paired difference a − b by a two-level (hierarchical) bootstrap: seeds are
 * resampled with replacement, then, within each drawn seed, its tasks (a task's pair kept together). Both
 * sources of noise a bench table has — which seeds were run (training), and which tasks each was tested on
 * (measurement) — enter the interval, where the t interval over seed means sees the second only through the
 * first. The point estimate is the mean over seeds of each seed's mean difference.
 */
export function hierarchicalBootstrap(
  a: SeededTaskOutcomes,
  b: SeededTaskOutcomes,
  { level = 0.95, resamples = 2000, seed = 1 }: { level?: number; resamples?: number; seed?: number } = {},
): { seeds: number; tasks: number; mean: number; lo: number; hi: number } {
  const { differences } = pairByTask(a, b);
  const n = differences.length;
  const tasks = differences.reduce((s, d) => s + d.length, 0);
  const point = mean(differences.map((d) => mean(d)));
  if (n < 2) return { seeds: n, tasks, mean: point, lo: Number.NaN, hi: Number.NaN };
  const rng = createRng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const d = differences[Math.floor(rng.float() * n)] as number[];
      let sum = 0;
      for (let j = 0; j < d.length; j++) sum += d[Math.floor(rng.float() * d.length)] as number;
      total += sum / d.length;
    }
    means[r] = total / n;
  }
  means.sort();
  const at = (q: number) =>
    means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))] as number;
  const alpha = (1 - level) / 2;
  return { seeds: n, tasks, mean: point, lo: at(alpha), hi: at(1 - alpha) };
}

/**
 * The binomial standard error of a success rate p measured on n independent tasks, √(p(1 − p)/n): the noise a
 * single held-out test adds on its own, whatever the seed. NaN for n < 1.
 */
export function binomialSe(p: number, n: number): number {
  if (!(n >= 1) || !Number.isFinite(p)) return Number.NaN;
  const q = Math.min(1, Math.max(0, p));
  return Math.sqrt((q * (1 - q)) / n);
}

/** P(F ≤ x) for Fisher's F with (d1, d2) degrees of freedom. */
export function fCdf(x: number, d1: number, d2: number): number {
  if (!(x > 0)) return 0;
  return incompleteBeta((d1 * x) / (d1 * x + d2), d1 / 2, d2 / 2);
}

/**
 * The p-quantile of Fisher's F with (d1, d2) degrees of freedom (p in (0, 1)), by bisection on `fCdf`, e.g.
 * fQuantile(0.975, 9, 9) = 4.0260.
 */
export function fQuantile(p: number, d1: number, d2: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`fQuantile: expected 0 < p < 1, got ${p}`);
  if (!(d1 > 0 && d2 > 0)) throw new RangeError(`fQuantile: expected d1, d2 > 0, got ${d1}, ${d2}`);
  let lo = 0;
  let hi = 1;
  while (fCdf(hi, d1, d2) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (fCdf(mid, d1, d2) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Whether one row's seed spread is smaller than another's: the ratio SD(a) / SD(b) of two independent samples
 * (the same seeds run under two recipes are not paired: a seed's outcome under one says nothing of it under the
 * other) with its interval at `level` from the F test on the variances, which assumes each sample normal.
 * "smaller" when the whole interval is below 1, "larger" above it, a tie otherwise; with 10 seeds a side the
 * interval spans a factor of about 2 each way, so only a large change in spread is decided.
 */
export function sdRatio(a: readonly number[], b: readonly number[], level = 0.95) {
  const xs = a.filter(Number.isFinite);
  const ys = b.filter(Number.isFinite);
  const [sa, sb] = [sd(xs), sd(ys)];
  const ratio = sa / sb;
  if (xs.length < 2 || ys.length < 2 || !(sb > 0)) {
    return { ratio, lo: Number.NaN, hi: Number.NaN, verdict: 'unknown' as const };
  }
  const alpha = (1 - level) / 2;
  const [d1, d2] = [xs.length - 1, ys.length - 1];
  const lo = Math.sqrt((ratio * ratio) / fQuantile(1 - alpha, d1, d2));
  const hi = Math.sqrt((ratio * ratio) / fQuantile(alpha, d1, d2));
  const word = hi < 1 ? ('smaller' as const) : lo > 1 ? ('larger' as const) : ('tie' as const);
  return { ratio, lo, hi, verdict: word };
}
