import type { GroupIndex } from '../group/group-index.js';
import { computeBatchMoments, type GroupMoments, type StdKind, stdFrom } from '../group/group-moments.js';

/**
 * The GRPO family's conventions, each explicit because libraries disagree silently:
 * - `scale`: divide by the group's std (`group`), by the std of every score in the batch (`batch`, TRL's
 *   `scale_rewards="batch"`), or not at all (`none`, Dr.GRPO);
 * - `std`: `unbiased` (n − 1) or `population` (n);
 * - `epsilon`: added to the std before dividing;
 * - `singleton`: a one-sample group gets its raw score (`raw`, verl: mean 0 and std 1) or 0 (`zero`,
 *   the centred value).
 */
export interface NormalizeConvention {
  scale: 'group' | 'batch' | 'none';
  std: StdKind;
  epsilon: number;
  singleton: 'raw' | 'zero';
}

/** Per-group centre and denominator: a sample's normalised value is (x − centre[g]) / denom[g]. */
export interface NormalizeParams {
  centre: Float64Array;
  denom: Float64Array;
}

/** Centre and denominator of every group under a convention (denominator 1 for `scale: 'none'`). */
export function normalizationParams(
  values: Float64Array,
  moments: GroupMoments,
  convention: NormalizeConvention,
): NormalizeParams {
  const { groupCount, count, mean, m2 } = moments;
  const { scale, std, epsilon, singleton } = convention;
  const centre = new Float64Array(groupCount);
  const denom = new Float64Array(groupCount);
  let batchDenom = 1;
  if (scale === 'batch') {
    const all = computeBatchMoments(values);
    batchDenom = stdFrom(all.m2, all.count, std) + epsilon;
  }
  for (let g = 0; g < groupCount; g++) {
    const c = count[g] as number;
    const raw = c === 1 && singleton === 'raw';
    centre[g] = raw ? 0 : (mean[g] as number);
    const d =
      scale === 'none'
        ? 1
        : scale === 'group'
          ? raw
            ? 1 + epsilon
            : stdFrom(m2[g] as number, c, std) + epsilon
          : batchDenom;
    // Only epsilon = 0 can give a zero denominator; the numerator is then exactly 0 (a constant group).
    denom[g] = d === 0 ? 1 : d;
  }
  return { centre, denom };
}

/**
 * Writes (x − centre_g) / denominator_g for every finite sample and 0 for the rest. Centre and
 * denominator are computed once per group, so the per-sample loop is two loads and a division.
 */
export function groupNormalize(
  values: Float64Array,
  index: GroupIndex,
  moments: GroupMoments,
  convention: NormalizeConvention,
  out: Float64Array,
): void {
  const { centre, denom } = normalizationParams(values, moments, convention);
  const { groupCount, size } = index;
  const runStart = index.runStart;
  if (runStart) {
    // Contiguous groups: centre and denominator stay in registers for the whole run.
    for (let g = 0; g < groupCount; g++) {
      const c = centre[g] as number;
      const d = denom[g] as number;
      const end = runStart[g + 1] as number;
      for (let i = runStart[g] as number; i < end; i++) {
        const x = values[i] as number;
        out[i] = x - x === 0 ? (x - c) / d : 0;
      }
    }
    return;
  }
  const groupOf = index.groupOf;
  for (let i = 0; i < size; i++) {
    const x = values[i] as number;
    if (x - x !== 0) {
      out[i] = 0;
      continue;
    }
    const g = groupOf[i] as number;
    out[i] = (x - (centre[g] as number)) / (denom[g] as number);
  }
}
