import type { AdvantageBatch, AdvantageEstimator, EstimatorBatchOverrides } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { readBatch, requireField } from '../batch/read-batch.js';
import { readSampleWeights } from '../batch/sample-weights.js';
import { groupBookkeeping } from '../group/group-bookkeeping.js';
import { buildGroupIndex, buildPairIndex } from '../group/group-index.js';
import { computeGroupMoments, type StdKind, stdFrom } from '../group/group-moments.js';
import { OptionReader } from '../options/read-options.js';
import { type GrpoPreset, readConvention } from './grpo-presets.js';

/** What A_inter compares a generation's mean with: see `SkillR1Options.interBaseline`. */
export type SkillR1InterBaseline = 'generation-mean' | 'carried-skill';

export interface SkillR1Options {
  /**
   * Weight of the inter-generation term, >= 0, default 1. For standalone use: the batch's
   * `interGenerationWeights`, when present, replace it (`SKILL_R1_BATCH_OVERRIDES`), and the evolve run
   * always fills them (from `evolve.lambda`).
   */
  lambda?: number;
  /** Divide A_intra by the generation's std + ε (default false: centred only, as the paper's form). */
  normalizeIntra?: boolean;
  /**
   * Divide A_inter by the same std + ε as A_intra, so that both terms are in units of the generation's
   * spread (needs `normalizeIntra`; default false: A_inter in reward units, as the paper's form). A cell
   * whose candidates all scored the same (or a single candidate: std 0) gets A_inter = 0: its A_intra is 0
   * and there is no spread to measure the step in, where ε alone would multiply it by 1/ε.
   */
  normalizeInter?: boolean;
  /**
   * A_inter's baseline. `generation-mean` (default, the paper's form): the mean over all candidates of the
   * instance's previous generation (`batch.previousMeans` for the earliest generation in the batch).
   * `carried-skill`: the mean reward of the skill carried into this generation, i.e. the previous
   * generation's best candidate (`batch.carriedMeans` for the earliest generation, required; within the
   * batch the best candidate of the nearest earlier generation, as `carry: 'best'` picks it).
   */
  interBaseline?: SkillR1InterBaseline;
  /** Take `std` and `epsilon` (used by `normalizeIntra`) from a library's GRPO convention. */
  preset?: GrpoPreset;
  /** Std used by `normalizeIntra`, default `unbiased`. */
  std?: StdKind;
  /** Added to the std by `normalizeIntra`, default 1e-6. */
  epsilon?: number;
  /**
   * Per instance, the mean score of the generation before the earliest one in the batch (s0's rollouts for
   * generation 1). Keys are instance ids compared as strings. An instance without one gets A_inter = 0 for
   * its earliest generation. For standalone use: the batch's `previousMeans`, when present, replaces it,
   * and the evolve run always fills them. Not taken with `interBaseline: 'carried-skill'`.
   */
  previousMeans?: Record<string, number> | Map<string | number, number>;
}

const SKILL_R1_DEFAULTS = { scale: 'group', std: 'unbiased', epsilon: 1e-6, singleton: 'zero' } as const;

/**
 * Skill-R1's two-level advantage (arXiv 2605.09359). Samples are candidate skills; a group is one
 * (instance, generation) cell, instance = `instanceIds` if given, else `groupIds`.
 *
 *     A_intra(g, i) = r_g^(i) − mean_j r_g^(j)                 (normalizeIntra: / (std_g + ε))
 *     A_inter(g)    = mean_i r_g^(i) − b(g')                   g' = the instance's nearest earlier generation
 *     b(g')         = mean_i r_{g'}^(i)                        interBaseline 'generation-mean' (default)
 *                   = max_i r_{g'}^(i)                         'carried-skill': the carried (best) candidate
 *                                                              (normalizeInter: A_inter / (std_g + ε), 0 if std_g = 0)
 *     A             = A_intra + λ · A_inter                   λ = batch.interGenerationWeights[i], else the option
 *
 * The earliest generation of an instance compares with the baseline from before the batch: with
 * `generation-mean`, `batch.previousMeans` (what the evolve loop fills), else `options.previousMeans`; with
 * `carried-skill`, `batch.carriedMeans` (the carried skill's own mean, which the evolve loop also fills;
 * under `carry: 'sample'` it is the sampled candidate's). An instance with no such entry gets A_inter = 0
 * there. A generation missing from the batch is skipped over (g' is the nearest one present). The
 * bookkeeping metrics count (instance, generation) cells as groups; `inter_mean` is the mean A_inter, in
 * reward units, over cells that have one.
 *
 * Why `normalizeInter` exists: with `normalizeIntra` alone A_intra is in units of the generation's std and
 * A_inter in reward units, so the weight A_inter really gets changes with each generation's spread — a 0.1
 * improvement counts 0.1 beside A_intra values of about ±1 whether the std is 0.05 (two std-units) or 0.5
 * (a fifth of one). Dividing both by the same std + ε makes A the unnormalised A divided by it, and scale-free
 * (multiplying every reward and baseline by c > 0 changes nothing, up to ε). Off by default: the paper's
 * form keeps A_inter in reward units.
 */
export function createSkillR1(options?: SkillR1Options): AdvantageEstimator {
  const reader = new OptionReader('skill-r1', options, [
    'lambda',
    'normalizeIntra',
    'normalizeInter',
    'interBaseline',
    'preset',
    'std',
    'epsilon',
    'previousMeans',
  ]);
  const lambda = reader.number('lambda', 1, { min: 0 });
  const normalizeIntra = reader.boolean('normalizeIntra', false);
  const normalizeInter = reader.boolean('normalizeInter', false);
  if (normalizeInter && !normalizeIntra) {
    throw new InvalidArgumentError(
      'options.normalizeInter',
      'skill-r1: puts A_inter on the scale of a normalised A_intra, so it needs normalizeIntra: true',
    );
  }
  const carried =
    reader.choice('interBaseline', ['generation-mean', 'carried-skill'] as const, 'generation-mean') ===
    'carried-skill';
  const { std, epsilon } = readConvention(reader, SKILL_R1_DEFAULTS, ['std', 'epsilon']);
  const previousMeans = reader.numberMap('previousMeans');
  if (carried && previousMeans) {
    throw new InvalidArgumentError(
      'options.previousMeans',
      "skill-r1: is the generation-mean baseline; interBaseline 'carried-skill' reads batch.carriedMeans instead",
    );
  }
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
      const interWeights = readSampleWeights(
        checked,
        'interGenerationWeights',
        'skill-r1',
        'the weight of A_inter',
      );
      let previous: Map<string, number> | undefined;
      if (carried) {
        previous = instanceMeans(batch, 'carriedMeans', 'the carried skill’s mean score');
        if (!previous) {
          throw new MissingFieldError(
            'skill-r1',
            'carriedMeans',
            "interBaseline 'carried-skill' compares each instance's earliest generation with the mean of the skill carried into it; give { [instance]: mean } ({} when there is none)",
          );
        }
      } else {
        previous =
          instanceMeans(batch, 'previousMeans', 'the previous generation’s mean score') ?? previousMeans;
      }
      const instanceKeys = batch.instanceIds ?? batch.groupIds;
      const instances = buildGroupIndex(instanceKeys);
      const generations = buildGroupIndex(generationsField as ArrayLike<number>);
      const cells = buildPairIndex(instances, generations);
      const { scores, size } = checked;
      const moments = computeGroupMoments(scores, cells, { successes: batch.successes });
      // The carried candidate of each cell: its best finite score (candidates are the samples).
      const best = new Float64Array(cells.groupCount).fill(Number.NEGATIVE_INFINITY);
      if (carried) {
        for (let i = 0; i < size; i++) {
          const x = scores[i] as number;
          const c = cells.groupOf[i] as number;
          if (x - x === 0 && x > (best[c] as number)) best[c] = x;
        }
      }

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
        let baseline = previous?.get(String(key));
        for (let a = lo; a < hi; a++) {
          const c = ordered[a] as number;
          const mean = moments.mean[c] as number;
          if (moments.count[c] === 0) continue;
          if (baseline !== undefined) {
            inter[c] = mean - baseline;
            interSum += mean - baseline;
            interCells++;
          }
          baseline = carried ? (best[c] as number) : mean;
        }
      }

      const advantages = outputArray('skill-r1', size, options);
      const groupOf = cells.groupOf;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const c = groupOf[i] as number;
        let intra = x - (moments.mean[c] as number);
        let between = inter[c] as number;
        if (normalizeIntra) {
          const sd = stdFrom(moments.m2[c] as number, moments.count[c] as number, std);
          const denom = sd + epsilon;
          if (denom !== 0) intra /= denom;
          if (normalizeInter) between = sd === 0 ? 0 : between / denom;
        }
        advantages[i] = intra + (interWeights ? (interWeights[i] as number) : lambda) * between;
      }
      const bookkeeping = groupBookkeeping(moments);
      return {
        advantages,
        metrics: { ...bookkeeping, inter_mean: interCells === 0 ? 0 : interSum / interCells },
      };
    },
  };
}

/**
 * The options of `skill-r1` that a batch field replaces when present: a run that always fills
 * `interGenerationWeights` and `previousMeans` (evolve does) makes `lambda` and `previousMeans` do nothing.
 * Also on the factory, as `createSkillR1.batchOverrides`, so it travels with it into any registry.
 */
export const SKILL_R1_BATCH_OVERRIDES: EstimatorBatchOverrides = {
  interGenerationWeights: ['lambda'],
  previousMeans: ['previousMeans'],
};
createSkillR1.batchOverrides = SKILL_R1_BATCH_OVERRIDES;

/** A per-instance record of the batch as a map from instance id, each value checked; undefined when absent. */
function instanceMeans(
  batch: AdvantageBatch,
  field: 'previousMeans' | 'carriedMeans',
  meaning: string,
): Map<string, number> | undefined {
  const value: unknown = batch[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new InvalidArgumentError(
      `batch.${field}`,
      `skill-r1: expected an object from instance id to ${meaning}`,
    );
  }
  // A Map is taken as well: Object.entries would silently read it as empty.
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  const out = new Map<string, number>();
  for (const [key, mean] of entries) {
    if (typeof mean !== 'number' || !Number.isFinite(mean)) {
      throw new InvalidArgumentError(
        `batch.${field}.${String(key)}`,
        `skill-r1: expected a finite number, got ${String(mean)}; leave out an instance that has none`,
      );
    }
    out.set(String(key), mean);
  }
  return out;
}
