import type { AdvantageBatch } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../registry/estimator-registry.js';

interface Row {
  group: number;
  score: number;
  condition: number;
  generation: number;
  length: number;
  baseline: number;
}

const rows = fc.array(
  fc.record({
    group: fc.integer({ min: 0, max: 4 }),
    score: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: -2, max: 2, noNaN: true })),
    condition: fc.integer({ min: 0, max: 1 }),
    generation: fc.integer({ min: 0, max: 2 }),
    length: fc.integer({ min: 1, max: 50 }),
    baseline: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  { minLength: 2, maxLength: 40 },
);

function toBatch(data: Row[], scores: number[]): AdvantageBatch {
  return {
    scores,
    groupIds: data.map((r) => r.group),
    conditions: data.map((r) => r.condition),
    generations: data.map((r) => r.generation),
    lengths: data.map((r) => r.length),
    baselines: data.map((r) => r.baseline),
    // gigpo: 1–3 steps, states from three keys so they repeat, step rewards from the baseline.
    stepKeys: data.map((r) => Array.from({ length: 1 + (r.length % 3) }, (_, t) => `k${(r.length + t) % 3}`)),
    stepRewards: data.map((r) => Array.from({ length: 1 + (r.length % 3) }, (_, t) => r.baseline * t)),
  };
}

// Every group-local configuration: changing one group's scores must not move any other group's advantages.
const GROUP_LOCAL: Array<[string, Record<string, unknown>]> = [
  ['grpo', { preset: 'verl' }],
  ['grpo', { preset: 'trl' }],
  ['grpo', { preset: 'art' }],
  ['dr-grpo', {}],
  ['rloo', {}],
  ['grpo-passk', {}],
  ['opo', {}],
  ['remax', {}],
  ['skill-r1', { lambda: 0.7, normalizeIntra: true }],
  ['skillc', { w: 0.3, lambda: 2 }],
  ['skillc', { gate: 'all' }],
  ['d2skill-mixed', {}],
  ['gigpo', {}],
  ['gigpo', { mode: 'mean_std_norm', episodeMoments: 'trajectories' }],
];

describe('group isolation (property)', () => {
  for (const [name, options] of GROUP_LOCAL) {
    it(`${name} ${JSON.stringify(options)}`, () => {
      fc.assert(
        fc.property(
          rows,
          fc.integer({ min: 0, max: 4 }),
          fc.double({ min: -3, max: 3, noNaN: true }),
          (data, target, v) => {
            const estimator = createEstimator(name, options);
            const before = estimator.estimate(
              toBatch(
                data,
                data.map((r) => r.score),
              ),
            ).advantages;
            const changed = data.map((r, i) => (r.group === target ? v * ((i % 3) - 1) : r.score));
            const after = estimator.estimate(toBatch(data, changed)).advantages;
            data.forEach((r, i) => {
              if (r.group !== target) expect(after[i]).toBe(before[i]);
            });
          },
        ),
        { numRuns: 60 },
      );
    });
  }
});
