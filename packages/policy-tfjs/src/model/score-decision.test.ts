import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentConfig } from './agent-config.js';
import type { DecisionRecord } from './decision-record.js';
import { packBatch } from './pack-batch.js';
import { initParameters } from './parameters.js';
import { scoreDecision } from './score-decision.js';
import { createTfPolicy } from './tf-policy.js';

const V = 30;
const config = resolveAgentConfig({ dim: 4 });

const ids = fc.array(fc.integer({ min: 0, max: V - 1 }), { maxLength: 5 });
const record: fc.Arbitrary<DecisionRecord> = fc
  .record({ C: fc.integer({ min: 1, max: 6 }), S: fc.integer({ min: 0, max: 4 }), cond: fc.boolean() })
  .chain(({ C, S, cond }) =>
    fc.record({
      v: fc.constant(1 as const),
      candidates: fc.constant(Array.from({ length: C }, (_, i) => `a${i}`)),
      chosen: fc.integer({ min: 0, max: C - 1 }),
      temperature: fc.double({ min: 0.3, max: 2, noNaN: true }),
      condition: fc.constant(cond && S > 0 ? (1 as const) : (0 as const)),
      cand: fc.array(ids, { minLength: C, maxLength: C }),
      goal: ids,
      obs: ids,
      hist: ids,
      feats: fc.array(fc.array(fc.double({ min: 0, max: 4, noNaN: true }), { minLength: 4, maxLength: 4 }), {
        minLength: C,
        maxLength: C,
      }),
      done: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: S, maxLength: S }),
      rank: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: S, maxLength: S }),
      sign: fc.array(fc.constantFrom(1, -1), { minLength: S, maxLength: S }),
      sims:
        S === 0
          ? fc.constant([])
          : fc.uniqueArray(
              fc.tuple(
                fc.integer({ min: 0, max: C - 1 }),
                fc.integer({ min: 0, max: S - 1 }),
                fc.double({ min: 0.05, max: 1, noNaN: true }),
              ),
              { selector: ([c, s]) => `${c},${s}`, maxLength: C * S },
            ),
    }),
  );

beforeAll(async () => {
  await initBackend();
});

describe('scoreDecision', () => {
  it('is a distribution, and the tfjs model computes the same log-probs', () => {
    const params = initParameters(config, V, 3);
    // Non-zero learned weights, so every term of the score is exercised.
    params.query.forEach((_, i) => {
      params.query[i] = Math.sin(i) * 0.5;
    });
    params.actionBias.fill(0.3);
    params.featureWeights.set([0.5, -0.25, -1, 0.75, 0.4, -0.3]);
    const policy = createTfPolicy(params, config, V);
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 4 }), (records) => {
        const expected = records.map((r) => scoreDecision(params, r, config.dim));
        for (const lp of expected) {
          expect(lp.reduce((a, x) => a + Math.exp(x), 0)).toBeCloseTo(1, 9);
        }
        const out = policy.logProbs(packBatch([records], { vocabularySize: V }));
        const got = out.logProbs.dataSync();
        tf.dispose([out.logProbs, out.entropy]);
        records.forEach((r, t) => {
          expect(Math.abs((got[t] as number) - (expected[t]?.[r.chosen] as number))).toBeLessThan(1e-4);
        });
      }),
      { numRuns: 60, seed: 7 },
    );
    policy.dispose();
  });

  it('ignores the skill terms without a skill (hand-computed uniform case)', () => {
    const params = initParameters(config, V, 1);
    const r: DecisionRecord = {
      v: 1,
      candidates: ['a', 'b', 'c', 'd'],
      chosen: 0,
      temperature: 1,
      condition: 0,
      cand: [[1], [2], [3], [4]],
      goal: [5],
      obs: [6],
      hist: [],
      feats: [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      done: [0],
      rank: [0],
      sign: [1],
      sims: [[0, 0, 1]],
    };
    // Zero query, bias and feature weights and no skill: every logit is 0, so each log-prob is −ln 4.
    for (const lp of scoreDecision(params, r, config.dim)) expect(lp).toBeCloseTo(-Math.log(4), 12);
    // With the skill: β·(e^{τ·1}/(1 + e^{τ}))·1 = 8·e^4/(1+e^4) ≈ 7.857 on candidate 0 only.
    const lp = scoreDecision(params, { ...r, condition: 1 }, config.dim);
    const boost = (8 * Math.exp(4)) / (1 + Math.exp(4));
    expect(lp[0]).toBeCloseTo(boost - Math.log(Math.exp(boost) + 3), 6);
  });
});
