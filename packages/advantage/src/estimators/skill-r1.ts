import type { AdvantageBatch, AdvantageEstimator } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { readBatch, requireField } from '../batch/read-batch.js';
import { groupBookkeeping } from '../group/group-bookkeeping.js';
import { buildGroupIndex, buildPairIndex } from '../group/group-index.js';
import { computeGroupMoments, type StdKind, stdFrom } from '../group/group-moments.js';
import { OptionReader } from '../options/read-options.js';
import { type GrpoPreset, readConvention } from './grpo-presets.js';

export interface SkillR1Options {
  /** Weight of the inter-generation term, >= 0, default 1; the batch's `lambdas`, when present, replace it. */
  lambda?: number;
  /** Divide A_intra by the generation's std + ε (default false: centred only, as the paper's form). */
  normalizeIntra?: boolean;
  /** Take `std` and `epsilon` (used by `normalizeIntra`) from a library's GRPO convention. */
  preset?: GrpoPreset;
  /** Std used by `normalizeIntra`, default `unbiased`. */
  std?: StdKind;
  /** Added to the std by `normalizeIntra`, default 1e-6. */
  epsilon?: number;
  /**
   * Per instance, the mean score of the generation before the earliest one in the batch (s0's rollouts for
   * generation 1). Keys are instance ids compared as strings. An instance without one gets A_inter = 0 for
   * its earliest generation. For standalone use: the batch's `previousMeans`, when present, replaces it.
   */
  previousMeans?: Record<string, number> | Map<string | number, number>;
}

const SKILL_R1_DEFAULTS = { scale: 'group', std: 'unbiased', epsilon: 1e-6, singleton: 'zero' } as const;

/**
 * Skill-R1's two-level advantage (arXiv 2605.09359). Samples are candidate skills; a group is one
 * (instance, generation) cell, instance = `instanceIds` if given, else `groupIds`.
 *
 *     A_intra(g, i) = r_g^(i) − mean_j r_g^(j)                 (option: / (std_j + ε))
 *     A_inter(g)    = mean_i r_g^(i) − mean_i r_{g'}^(i)       g' = the instance's nearest earlier generation
 *     A             = A_intra + λ · A_inter                   λ = batch.lambdas[i] (the evolve loop's), else the option
 *
 * The earliest generation of an instance compares with its previous mean — `batch.previousMeans` (what the
 * evolve loop fills), else `options.previousMeans` — or gets A_inter = 0. A generation
 * missing from the batch is skipped over (g' is the nearest one present). The bookkeeping metrics count
 * (instance, generation) cells as groups; `inter_mean` is the mean A_inter over cells that have one.
 */
export function createSkillR1(options?: SkillR1Options): AdvantageEstimator {
  const reader = new OptionReader('skill-r1', options, [
    'lambda',
    'normalizeIntra',
    'preset',
    'std',
    'epsilon',
    'previousMeans',
  ]);
  const lambda = reader.number('lambda', 1, { min: 0 });
  const normalizeIntra = reader.boolean('normalizeIntra', false);
  const { std, epsilon } = readConvention(reader, SKILL_R1_DEFAULTS, ['std', 'epsilon']);
  const previousMeans = reader.numberMap('previousMeans');
  return {
    name: 'skill-r1',
    estimate(batch, options) {
      const checked = readBatch(batch, 'skill-r1');
      const generationsField = requireField(
        checked,
        'generations',
        'skill-r1',
        'give each candidate the generation that proposed it',
      );
      const previous = batchPreviousMeans(batch) ?? previousMeans;
      const lambdas = batchLambdas(batch, checked.size);
      const instanceKeys = batch.instanceIds ?? batch.groupIds;
      const instances = buildGroupIndex(instanceKeys);
      const generations = buildGroupIndex(generationsField as ArrayLike<number>);
      const cells = buildPairIndex(instances, generations);
      const { scores, size } = checked;
      const moments = computeGroupMoments(scores, cells, { successes: batch.successes });

      // Order each instance's cells by generation value: counting sort by instance, then insertion sort
      // within an instance (a handful of generations each).
      const cellCount = cells.groupCount;
      const cellInstance = new Int32Array(cellCount);
      const cellGeneration = new Float64Array(cellCount);
      const instanceOf = instances.groupOf;
      for (let c = 0; c < cellCount; c++) {
        const first = cells.firstSample[c] as number;
        cellInstance[c] = instanceOf[first] as number;
        const generation = generationsField[first];
        if (typeof generation !== 'number' || Number.isNaN(generation)) {
          throw new InvalidArgumentError(
            `batch.generations[${first}]`,
            `skill-r1: expected a number, got ${String(generation)}`,
          );
        }
        cellGeneration[c] = generation;
      }
      const start = new Int32Array(instances.groupCount + 1);
      for (let c = 0; c < cellCount; c++) start[(cellInstance[c] as number) + 1]!++;
      for (let k = 0; k < instances.groupCount; k++) start[k + 1]! += start[k] as number;
      const fill = start.slice(0, instances.groupCount);
      const ordered = new Int32Array(cellCount);
      for (let c = 0; c < cellCount; c++) ordered[fill[cellInstance[c] as number]!++] = c;

      const inter = new Float64Array(cellCount);
      let interSum = 0;
      let interCells = 0;
      for (let k = 0; k < instances.groupCount; k++) {
        const lo = start[k] as number;
        const hi = start[k + 1] as number;
        for (let a = lo + 1; a < hi; a++) {
          const c = ordered[a] as number;
          let b = a - 1;
          while (
            b >= lo &&
            (cellGeneration[ordered[b] as number] as number) > (cellGeneration[c] as number)
          ) {
            ordered[b + 1] = ordered[b] as number;
            b--;
          }
          ordered[b + 1] = c;
        }
        const key = instanceKeys[instances.firstSample[k] as number];
        let previousMean = previous?.get(String(key));
        for (let a = lo; a < hi; a++) {
          const c = ordered[a] as number;
          const mean = moments.mean[c] as number;
          if (moments.count[c] === 0) continue;
          if (previousMean !== undefined) {
            inter[c] = mean - previousMean;
            interSum += mean - previousMean;
            interCells++;
          }
          previousMean = mean;
        }
      }

      const advantages = outputArray('skill-r1', size, options);
      const groupOf = cells.groupOf;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const c = groupOf[i] as number;
        let intra = x - (moments.mean[c] as number);
        if (normalizeIntra) {
          const denom = stdFrom(moments.m2[c] as number, moments.count[c] as number, std) + epsilon;
          if (denom !== 0) intra /= denom;
        }
        advantages[i] = intra + (lambdas ? (lambdas[i] as number) : lambda) * (inter[c] as number);
      }
      const bookkeeping = groupBookkeeping(moments);
      return {
        advantages,
        metrics: { ...bookkeeping, inter_mean: interCells === 0 ? 0 : interSum / interCells },
      };
    },
  };
}

/** `batch.previousMeans` as a map from instance id, each value checked; undefined when the batch has none. */
function batchPreviousMeans(batch: AdvantageBatch): Map<string, number> | undefined {
  const value: unknown = batch.previousMeans;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new InvalidArgumentError(
      'batch.previousMeans',
      'skill-r1: expected an object from instance id to the previous generation’s mean score',
    );
  }
  // A Map is taken as well: Object.entries would silently read it as empty.
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  const out = new Map<string, number>();
  for (const [key, mean] of entries) {
    if (typeof mean !== 'number' || !Number.isFinite(mean)) {
      throw new InvalidArgumentError(
        `batch.previousMeans.${String(key)}`,
        `skill-r1: expected a finite number, got ${String(mean)}; leave out an instance that has no previous mean`,
      );
    }
    out.set(String(key), mean);
  }
  return out;
}

/** `batch.lambdas` (the weight of A_inter per sample), each value checked; undefined when the batch has none. */
function batchLambdas(batch: AdvantageBatch, size: number): ArrayLike<number> | undefined {
  const lambdas = batch.lambdas;
  if (lambdas === undefined || lambdas === null) return undefined;
  // The length was checked with the other per-sample fields.
  for (let i = 0; i < size; i++) {
    const v: unknown = lambdas[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new InvalidArgumentError(
        `batch.lambdas[${i}]`,
        `skill-r1: expected a finite number >= 0 (the weight of A_inter), got ${String(v)}`,
      );
    }
  }
  return lambdas;
}
