import { MissingFieldError } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createSkillR1 } from './skill-r1.js';

// Instance x: generation 1 candidates [0.2, 0.4] (mean 0.3), generation 2 [0.5, 0.9] (mean 0.7).
// Instance y, shuffled in: generation 3 [1, 1] (mean 1), generation 1 [0, 0.5] (mean 0.25); no generation 2.
const batch = {
  scores: [0.2, 1, 0.4, 0.5, 0, 0.9, 1, 0.5],
  groupIds: ['x', 'y', 'x', 'x', 'y', 'x', 'y', 'y'],
  generations: [1, 3, 1, 2, 1, 2, 3, 1],
};

describe('skill-r1', () => {
  it('adds λ·A_inter to the within-generation centred score', () => {
    // x gen 1: intra ∓0.1, inter 0.3 − previousMeans.x (0.1) = 0.2 → [0.1, 0.3].
    // x gen 2: intra ∓0.2, inter 0.7 − 0.3 = 0.4 → [0.2, 0.6].
    // y gen 1: intra ∓0.25, no previous mean → inter 0 → [−0.25, 0.25].
    // y gen 3: intra 0, inter against the nearest earlier generation present (1): 1 − 0.25 = 0.75.
    const { advantages, metrics } = createSkillR1({ previousMeans: { x: 0.1 } }).estimate(batch);
    expectAdvantages(advantages, [0.1, 0.75, 0.3, 0.2, -0.25, 0.6, 0.75, 0.25]);
    // A_inter over cells that have one: (0.2 + 0.4 + 0.75)/3.
    expect(metrics.inter_mean).toBeCloseTo((0.2 + 0.4 + 0.75) / 3, 14);
    // Four (instance, generation) groups; y gen 3 is constant and all pass; y gen 1 has a 0 → mixed.
    expect(metrics).toMatchObject({ groups: 4, groups_all_pass: 3, groups_all_fail: 0, frac_zero_std: 0.25 });
  });

  it('weights A_inter by λ', () => {
    // λ = 0.5: x gen 1 [−0.1 + 0.1, 0.1 + 0.1], x gen 2 [−0.2 + 0.2, 0.2 + 0.2], y gen 3 0.375.
    const { advantages } = createSkillR1({ lambda: 0.5, previousMeans: new Map([['x', 0.1]]) }).estimate(
      batch,
    );
    expectAdvantages(advantages, [0, 0.375, 0.2, 0, -0.25, 0.4, 0.375, 0.25]);
  });

  it('reads λ per sample from batch.lambdas, over the option', () => {
    // Same cells as above with previousMeans x: 0.1. Batch λ 0.5 everywhere gives the λ = 0.5 values even
    // though the option says 2; λ 0 on y's samples leaves y with A_intra alone (y gen 3: 0).
    const est = createSkillR1({ lambda: 2, previousMeans: { x: 0.1 } });
    expectAdvantages(
      est.estimate({ ...batch, lambdas: batch.scores.map(() => 0.5) }).advantages,
      [0, 0.375, 0.2, 0, -0.25, 0.4, 0.375, 0.25],
    );
    const yWithout = batch.groupIds.map((g) => (g === 'y' ? 0 : 1));
    expectAdvantages(
      est.estimate({ ...batch, lambdas: yWithout }).advantages,
      [0.1, 0, 0.3, 0.2, -0.25, 0.6, 0, 0.25],
    );
    expect(() => est.estimate({ ...batch, lambdas: [1, 1, 1, -1, 1, 1, 1, 1] })).toThrow(
      /batch\.lambdas\[3\]/,
    );
  });

  it('divides A_intra by std + ε with normalizeIntra', () => {
    // x gen 1: [0.2, 0.4], unbiased std sqrt(0.02) = 0.1414213562 → ∓0.1/(0.1414213562 + 1e-6) = ∓0.7071017812.
    const { advantages } = createSkillR1({ lambda: 0, normalizeIntra: true }).estimate(batch);
    expect(advantages[0]).toBeCloseTo(-0.1 / (Math.sqrt(0.02) + 1e-6), 12);
    expect(advantages[0]).toBeCloseTo(-0.7071017812219027, 12);
  });

  it('uses instanceIds as the instance when given', () => {
    const { advantages } = createSkillR1().estimate({
      scores: [0, 1, 1, 1],
      groupIds: ['x/1', 'x/1', 'x/2', 'x/2'],
      instanceIds: ['x', 'x', 'x', 'x'],
      generations: [1, 1, 2, 2],
    });
    // gen 1 mean 0.5 → [−0.5, 0.5]; gen 2 mean 1: intra 0, inter 0.5.
    expectAdvantages(advantages, [-0.5, 0.5, 0.5, 0.5]);
  });

  it('needs generations', () => {
    expect(() => createSkillR1().estimate({ scores: [1], groupIds: [1] })).toThrow(MissingFieldError);
  });

  it('with λ = 0 equals the scores centred within each (instance, generation) group', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            instance: fc.constantFrom('a', 'b', 'c'),
            generation: fc.integer({ min: 0, max: 3 }),
            score: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          { maxLength: 40 },
        ),
        (rows) => {
          const { advantages } = createSkillR1({ lambda: 0 }).estimate({
            scores: rows.map((r) => r.score),
            groupIds: rows.map((r) => r.instance),
            generations: rows.map((r) => r.generation),
          });
          rows.forEach((row, i) => {
            const cell = rows.filter((r) => r.instance === row.instance && r.generation === row.generation);
            const mean = cell.reduce((s, r) => s + r.score, 0) / cell.length;
            expect(Math.abs((advantages[i] as number) - (row.score - mean))).toBeLessThan(1e-12);
          });
        },
      ),
    );
  });

  it('reads previousMeans from the batch, over the option', () => {
    // The batch's x: 0.1 as in the first test; the option's x: 0.9 is not used.
    const est = createSkillR1({ previousMeans: { x: 0.9 } });
    const fromBatch = est.estimate({ ...batch, previousMeans: { x: 0.1 } }).advantages;
    expectAdvantages(fromBatch, [0.1, 0.75, 0.3, 0.2, -0.25, 0.6, 0.75, 0.25]);
    // Without it in the batch, the option applies: x gen 1 inter 0.3 − 0.9 = −0.6.
    expect(est.estimate(batch).advantages[0]).toBeCloseTo(-0.1 - 0.6, 14);
    // An empty record in the batch means no previous means at all, not the option's.
    expect(est.estimate({ ...batch, previousMeans: {} }).advantages[0]).toBeCloseTo(-0.1, 14);
  });

  it('checks batch.previousMeans: an object of finite numbers', () => {
    const est = createSkillR1();
    expect(() => est.estimate({ ...batch, previousMeans: { x: Number.NaN } })).toThrow(
      /batch\.previousMeans\.x: skill-r1: expected a finite number/,
    );
    expect(() => est.estimate({ ...batch, previousMeans: [0.5] as never })).toThrow(/batch\.previousMeans/);
    expect(() => est.estimate({ ...batch, previousMeans: { y: '0.5' } as never })).toThrow(
      /batch\.previousMeans\.y/,
    );
  });

  it('takes std and ε for normalizeIntra from a preset', () => {
    // x gen 1: [0.2, 0.4]: population std 0.1 (art), unbiased sqrt(0.02) with ε 1e-4 (trl).
    const at = (preset: 'art' | 'trl') =>
      createSkillR1({ lambda: 0, normalizeIntra: true, preset }).estimate(batch).advantages[0];
    expect(at('art')).toBeCloseTo(-0.1 / (0.1 + 1e-6), 12);
    expect(at('trl')).toBeCloseTo(-0.1 / (Math.sqrt(0.02) + 1e-4), 12);
  });
});
