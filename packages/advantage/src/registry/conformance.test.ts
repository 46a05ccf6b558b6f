import type { AdvantageBatch, Rng } from '@skillrl/core';
import {
  type BaseBatch,
  describeEstimatorConformance,
  type EstimatorConformanceOptions,
} from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createEstimator, listEstimators } from './estimator-registry.js';

// Extra fields derived from positions and group ids only, as the suite requires.
const conditionsByPosition = (base: BaseBatch): AdvantageBatch => ({
  ...base,
  conditions: base.scores.map((_, i) => i % 2),
});

// GiGPO's step fields: 1–4 steps per sample, keys from four states (so states repeat within and across
// trajectories and tasks), rewards from the rng. Not derived from the scores: the step returns are an input of
// their own, as the environment's step rewards are.
const withSteps = (base: BaseBatch, rng: Rng): AdvantageBatch => {
  const steps = base.scores.map(() => 1 + rng.int(4));
  return {
    ...base,
    stepKeys: steps.map((n) => Array.from({ length: n }, () => `s${rng.int(4)}`)),
    stepRewards: steps.map((n) => Array.from({ length: n }, () => (rng.bernoulli(0.5) ? 0 : rng.int(-2, 4)))),
  };
};

/** How each registered estimator runs the suite: what it needs, and whether it is group-local. */
const CONFORMANCE: Record<string, EstimatorConformanceOptions> = {
  grpo: {},
  'dr-grpo': {},
  rloo: {},
  'grpo-passk': {},
  grpo_passk: {},
  // Whitening over the batch couples every group.
  'reinforce-pp-baseline': { groupLocal: false },
  reinforce_plus_plus_baseline: { groupLocal: false },
  'reinforce-pp': {
    groupLocal: false,
    buildBatch: (base, rng) => ({ ...base, stepRewards: base.scores.map(() => [rng.int(2), rng.float()]) }),
  },
  reinforce_plus_plus: { groupLocal: false },
  opo: {
    requiredFields: ['lengths'],
    buildBatch: (base, rng) => ({ ...base, lengths: base.scores.map(() => 1 + rng.int(200)) }),
  },
  remax: {
    requiredFields: ['baselines'],
    buildBatch: (base, rng) => ({ ...base, baselines: base.scores.map(() => rng.float()) }),
  },
  // α = B / M counts non-zero scores over the whole batch.
  gpg: { groupLocal: false },
  'skill-r1': {
    requiredFields: ['generations'],
    buildBatch: (base) => ({ ...base, generations: base.scores.map((_, i) => i % 3) }),
  },
  skillc: { requiredFields: ['conditions'], buildBatch: conditionsByPosition },
  'd2skill-mixed': { requiredFields: ['conditions'], buildBatch: conditionsByPosition },
  gigpo: { requiredFields: ['stepKeys', 'stepRewards'], buildBatch: withSteps },
};

for (const name of listEstimators()) {
  describeEstimatorConformance(name, () => createEstimator(name), CONFORMANCE[name] ?? {});
}

// Non-default conventions that change the code path also run the suite.
describeEstimatorConformance('grpo (scale batch)', () => createEstimator('grpo', { scale: 'batch' }), {
  groupLocal: false,
});
describeEstimatorConformance(
  'skillc (scope batch, gate all, per-family λ)',
  () => createEstimator('skillc', { scope: 'batch', gate: 'all', lambdaByFamily: { a: 0.5 } }),
  {
    groupLocal: false,
    requiredFields: ['conditions', 'families'],
    buildBatch: (base) => ({
      ...conditionsByPosition(base),
      families: base.groupIds.map((g) => (String(g).length % 2 === 0 ? 'a' : 'b')),
    }),
  },
);
describeEstimatorConformance(
  'skill-r1 (previous means, normalised)',
  () => createEstimator('skill-r1', { normalizeIntra: true, previousMeans: { 1: 0.5, 'task-0': 0.25 } }),
  {
    requiredFields: ['generations'],
    buildBatch: (base) => ({ ...base, generations: base.scores.map((_, i) => (i * 7) % 4) }),
  },
);

describeEstimatorConformance(
  'skillc (additive ablation, attribution strengths from the batch)',
  () => createEstimator('skillc', { correction: 'additive' }),
  {
    requiredFields: ['conditions'],
    buildBatch: (base, rng) => ({
      ...conditionsByPosition(base),
      attributionStrengths: base.scores.map(() => 2 * rng.float()),
    }),
  },
);
describeEstimatorConformance(
  'skillc (attribution strengths from the batch, gate all, art preset)',
  () => createEstimator('skillc', { gate: 'all', preset: 'art' }),
  {
    requiredFields: ['conditions'],
    buildBatch: (base, rng) => ({
      ...conditionsByPosition(base),
      attributionStrengths: base.scores.map(() => 2 * rng.float()),
    }),
  },
);
describeEstimatorConformance('skill-r1 (previous means from the batch)', () => createEstimator('skill-r1'), {
  requiredFields: ['generations'],
  buildBatch: (base) => ({
    ...base,
    generations: base.scores.map((_, i) => i % 3),
    previousMeans: { 1: 0.5, 'task-0': 0.25 },
  }),
});

describeEstimatorConformance(
  'skill-r1 (carried-skill baseline, A_inter on the normalised scale, weights from the batch)',
  () =>
    createEstimator('skill-r1', {
      interBaseline: 'carried-skill',
      normalizeIntra: true,
      normalizeInter: true,
    }),
  {
    requiredFields: ['generations', 'carriedMeans'],
    buildBatch: (base, rng) => ({
      ...base,
      generations: base.scores.map((_, i) => (i * 5) % 3),
      carriedMeans: { 1: 0.5, 'task-0': 0.25 },
      interGenerationWeights: base.scores.map(() => 2 * rng.float()),
    }),
  },
);

describeEstimatorConformance(
  'gigpo (mean_std_norm, moments over trajectories, γ = 1, ω = 0.5)',
  () =>
    createEstimator('gigpo', {
      mode: 'mean_std_norm',
      episodeMoments: 'trajectories',
      gamma: 1,
      stepAdvantageWeight: 0.5,
    }),
  { requiredFields: ['stepKeys', 'stepRewards'], buildBatch: withSteps },
);

describe('conformance coverage', () => {
  it('has a conformance entry for every registered estimator', () => {
    expect(listEstimators().filter((name) => !(name in CONFORMANCE))).toEqual([]);
  });
});
