// Types of until-decided.mjs, for the CLI's tests.
export interface WatchedDifference {
  label: string;
  verdict: 'ahead' | 'behind' | 'tie' | 'unknown';
  mean: number;
  lo: number;
  hi: number;
}
export function isDecided(d: { verdict: string }): boolean;
export function untilDecided<D extends { verdict: string }>(options: {
  seeds: number[];
  maxSeeds: number;
  differences: (seeds: readonly number[]) => Promise<D[]>;
  addSeed: (seed: number) => void;
  log?: (step: { seeds: number; differences: D[]; next: number }) => void;
}): Promise<{ seeds: number[]; differences: D[]; decided: boolean }>;
