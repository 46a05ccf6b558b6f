import type { AdvantageBatch } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEstimator, estimatorBatchOverrides, listEstimators } from './estimator-registry.js';

// One batch with every field some built-in needs, two tasks with both conditions and Δ̂ > 0 in task 1.
const batch: AdvantageBatch = {
  scores: [1, 1, 0, 0, 1, 0, 0, 1],
  groupIds: [1, 1, 1, 1, 2, 2, 2, 2],
  instanceIds: [1, 1, 1, 1, 2, 2, 2, 2],
  generations: [1, 1, 2, 2, 1, 1, 2, 2],
  conditions: [1, 1, 0, 0, 1, 0, 1, 0],
  families: ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'],
  lengths: [3, 5, 2, 8, 1, 1, 4, 2],
  baselines: [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0],
  // gigpo's steps: two per sample, the first state shared within each task.
  stepKeys: [1, 1, 1, 1, 2, 2, 2, 2].map((task, i) => [`start-${task}`, `s${i % 3}`]),
  stepRewards: [1, 1, 0, 0, 1, 0, 0, 1].map((score) => [0, score]),
};
const methodInputs = {
  attributionStrengths: [2, 2, 2, 2, 0.5, 0.5, 0.5, 0.5],
  interGenerationWeights: [0.5, 0.5, 0.5, 0.5, 2, 2, 2, 2],
  previousMeans: { 1: 0.25, 2: 0.75 },
  carriedMeans: { 1: 0.5, 2: 1 },
};

describe('method inputs in the batch', () => {
  it('reach skillc and skill-r1 and leave every other built-in unchanged', () => {
    const readers: Record<string, (keyof typeof methodInputs)[]> = {
      skillc: ['attributionStrengths'],
      'skill-r1': ['interGenerationWeights', 'previousMeans'],
    };
    for (const name of listEstimators()) {
      const plain = createEstimator(name).estimate(batch).advantages;
      for (const field of Object.keys(methodInputs) as (keyof typeof methodInputs)[]) {
        const withField = createEstimator(name).estimate({
          ...batch,
          [field]: methodInputs[field],
        }).advantages;
        if (readers[name]?.includes(field)) expect(withField, `${name} ${field}`).not.toEqual(plain);
        else expect(withField, `${name} ${field}`).toEqual(plain);
      }
    }
  });

  it('are checked for length by every estimator, as every per-sample field', () => {
    for (const name of listEstimators()) {
      for (const field of ['attributionStrengths', 'interGenerationWeights']) {
        expect(() => createEstimator(name).estimate({ ...batch, [field]: [1] }), `${name} ${field}`).toThrow(
          new RegExp(`batch\\.${field}`),
        );
      }
    }
  });

  it('a `lambdas` field (removed before the first release) is ignored like any unknown field', () => {
    const legacy = { ...batch, lambdas: [1] } as AdvantageBatch;
    for (const name of listEstimators()) {
      expect(createEstimator(name).estimate(legacy).advantages, name).toEqual(
        createEstimator(name).estimate(batch).advantages,
      );
    }
  });
});

// A value for each option some estimator declares overridden; a new declaration without one here fails the
// coverage test below, so every declaration is exercised.
const OVERRIDDEN_OPTION_VALUES: Record<string, unknown> = {
  lambda: 3,
  lambdaByFamily: { a: 5, b: 0.25 },
  previousMeans: { 1: 0.9, 2: -1 },
};
const FIELD_VALUES: Record<string, AdvantageBatch[keyof AdvantageBatch]> = { ...methodInputs };

describe('declared batch overrides (estimatorBatchOverrides)', () => {
  it("skillc's and skill-r1's are what their docblocks say; the others declare none", () => {
    expect(estimatorBatchOverrides('skillc')).toEqual({
      attributionStrengths: ['lambda', 'lambdaByFamily'],
    });
    expect(estimatorBatchOverrides('skill-r1')).toEqual({
      interGenerationWeights: ['lambda'],
      previousMeans: ['previousMeans'],
    });
    for (const name of listEstimators()) {
      if (name !== 'skillc' && name !== 'skill-r1') expect(estimatorBatchOverrides(name), name).toEqual({});
    }
    expect(() => estimatorBatchOverrides('nope')).toThrow(/nope/);
  });

  it('hold: with the field in the batch, setting an option it overrides changes no advantage', () => {
    const declared = listEstimators().flatMap((name) =>
      Object.entries(estimatorBatchOverrides(name)).flatMap(([field, options]) =>
        (options ?? []).map((option) => ({ name, field, option })),
      ),
    );
    expect(declared.length).toBeGreaterThan(0);
    for (const { option } of declared) expect(OVERRIDDEN_OPTION_VALUES, option).toHaveProperty(option);
    fc.assert(
      fc.property(
        fc.constantFrom(...declared),
        fc.array(fc.constantFrom(0, 0.5, 1), { minLength: 8, maxLength: 8 }),
        ({ name, field, option }, scores) => {
          const b = { ...batch, scores, [field]: FIELD_VALUES[field] };
          const plain = createEstimator(name).estimate(b).advantages;
          const set = createEstimator(name, { [option]: OVERRIDDEN_OPTION_VALUES[option] }).estimate(
            b,
          ).advantages;
          expect(set, `${name}: ${field} over options.${option}`).toEqual(plain);
        },
      ),
    );
  });

  it('are real: without the field, each declared option does change the advantages here', () => {
    for (const name of listEstimators()) {
      for (const [field, options] of Object.entries(estimatorBatchOverrides(name))) {
        for (const option of options ?? []) {
          const b = { ...batch };
          const plain = createEstimator(name).estimate(b).advantages;
          const set = createEstimator(name, { [option]: OVERRIDDEN_OPTION_VALUES[option] }).estimate(
            b,
          ).advantages;
          expect(set, `${name}: options.${option} (overridden by ${field})`).not.toEqual(plain);
        }
      }
    }
  });
});
