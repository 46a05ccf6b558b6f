// Types of paired-stats.mjs, for the orchestrator's tests.
export type SeedValues = Iterable<readonly [number, number]>;
export interface Interval {
  n: number;
  mean: number;
  lo: number;
  hi: number;
}
export type Verdict = 'ahead' | 'behind' | 'tie' | 'unknown';
export interface PairedDifference extends Interval {
  seeds: number[];
  differences: number[];
  ahead: number;
  behind: number;
  verdict: Verdict;
}
export function mean(xs: readonly number[]): number;
export function sd(xs: readonly number[]): number;
export function se(xs: readonly number[]): number;
export function finite(xs: readonly unknown[]): number[];
export function incompleteBeta(x: number, a: number, b: number): number;
export function tCdf(t: number, df: number): number;
export function tQuantile(p: number, df: number): number;
export function tInterval(xs: readonly number[], level?: number): Interval & { se: number };
export function pairBySeed(a: SeedValues, b: SeedValues): { seeds: number[]; differences: number[] };
export function verdict(lo: number, hi: number): Verdict;
export function pairedDifference(a: SeedValues, b: SeedValues, level?: number): PairedDifference;
export function pairedBootstrap(
  a: SeedValues,
  b: SeedValues,
  options?: { level?: number; resamples?: number; seed?: number },
): Interval;
export function fCdf(x: number, d1: number, d2: number): number;
export function fQuantile(p: number, d1: number, d2: number): number;
export function sdRatio(
  a: readonly number[],
  b: readonly number[],
  level?: number,
): { ratio: number; lo: number; hi: number; verdict: 'smaller' | 'larger' | 'tie' | 'unknown' };
