import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_BLOCKS, hiddenScales, resolveAgentConfig } from './agent-config.js';
import { clauseRead } from './clause-read.js';
import type { DecisionRecord } from './decision-record.js';
import { packBatch } from './pack-batch.js';
import { type AgentParameters, initParameters } from './parameters.js';
import { createEmbeddingCache, scoreDecision, scoreDecisions } from './score-decision.js';
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

/**
 * The scorer as first written, one decision at a time with a dense [C, S] similarity matrix: what the batched
 * scorer, its embedding cache and its sparse skill reads must reproduce bit for bit.
 */
function denseScore(
  params: AgentParameters,
  record: DecisionRecord,
  d: number,
  memory: readonly number[],
): Float64Array {
  const mean = (out: Float64Array, ids: readonly number[], at: number) => {
    for (let j = 0; j < d; j++) out[at + j] = 0;
    if (ids.length === 0) return;
    for (const id of ids) {
      for (let j = 0; j < d; j++)
        out[at + j] = (out[at + j] as number) + (params.embedding[id * d + j] as number);
    }
    for (let j = 0; j < d; j++) out[at + j] = (out[at + j] as number) * (1 / ids.length);
  };
  const C = record.candidates.length;
  const H = params.hiddenBias.length;
  const F = params.featureWeights.length;
  const width = CONTEXT_BLOCKS * d;
  const ctx = new Float64Array(width);
  for (const [block, ids] of [record.goal, record.obs, record.hist, memory].entries())
    mean(ctx, ids, block * d);
  const h = Float64Array.from(params.hiddenBias);
  for (let i = 0; i < width; i++) {
    if (ctx[i] === 0) continue;
    for (let k = 0; k < H; k++) {
      h[k] = (h[k] as number) + (ctx[i] as number) * (params.hiddenWeights[i * H + k] as number);
    }
  }
  for (let k = 0; k < H; k++) h[k] = Math.tanh(h[k] as number);
  const q = Float64Array.from(params.actionBias);
  const theta = Float64Array.from(params.featureWeights);
  const scales = hiddenScales(H);
  for (let k = 0; k < H; k++) {
    for (let j = 0; j < d; j++) {
      q[j] = (q[j] as number) + (h[k] as number) * scales.query * (params.query[k * d + j] as number);
    }
    for (let f = 0; f < F; f++) {
      theta[f] =
        (theta[f] as number) + (h[k] as number) * scales.gate * (params.featureGate[k * F + f] as number);
    }
  }
  const logits = new Float64Array(C);
  const a = new Float64Array(d);
  for (let c = 0; c < C; c++) {
    mean(a, record.cand[c] ?? [], 0);
    let s = 0;
    for (let j = 0; j < d; j++) s += (a[j] as number) * (q[j] as number);
    for (let f = 0; f < F; f++) s += (record.feats[c]?.[f] ?? 0) * (theta[f] as number);
    logits[c] = s;
  }
  const S = record.done.length;
  if (record.condition === 1 && S > 0) {
    const [beta, tau, kappa, mu] = params.prior as unknown as number[];
    const base = Float64Array.from(
      record.done,
      (done, s) => -(kappa as number) * done - (mu as number) * (record.rank[s] as number),
    );
    const sims = new Float64Array(C * S);
    for (const [c, s, v] of record.sims) sims[c * S + s] = v;
    const att = new Float64Array(S);
    for (let c = 0; c < C; c++) {
      logits[c] =
        (logits[c] as number) +
        clauseRead(beta as number, tau as number, base, sims, c * S, record.sign, 0, S, att);
    }
  }
  const scaled = logits.map((l) => l * (1 / record.temperature));
  const max = Math.max(...scaled);
  const logZ = max + Math.log(scaled.reduce((z, l) => z + Math.exp(l - max), 0));
  return scaled.map((l) => l - logZ);
}

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

  it('is, batched and cached, bit for bit the dense one-decision scorer (property)', () => {
    const params = initParameters(config, V, 5);
    params.query.forEach((_, i) => {
      params.query[i] = Math.cos(i) * 0.7;
    });
    params.featureGate.forEach((_, i) => {
      params.featureGate[i] = Math.sin(3 * i) * 0.4;
    });
    params.actionBias.fill(-0.2);
    params.featureWeights.set([0.3, -0.6, 0.2, 0.9, -0.4, 0.1]);
    const memory = fc.array(fc.integer({ min: 0, max: V - 1 }), { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(record, memory), { minLength: 1, maxLength: 9 }), (drawn) => {
        // Beside each record: its clauses listed twice (the last value counts), and one out of range.
        const round = drawn.flatMap(([r, m]): [DecisionRecord, number[]][] => [
          [r, m],
          [
            {
              ...r,
              sims: [...r.sims, ...r.sims.map(([c, s, v]): [number, number, number] => [c, s, v / 2])],
            },
            m,
          ],
          [{ ...r, sims: [...r.sims, [0, r.done.length, 0.5]] }, m],
        ]);
        const expected = round.map(([r, m]) => Array.from(denseScore(params, r, config.dim, m)));
        const cache = createEmbeddingCache();
        // Two episodes share the round: a memory is sometimes an extension of the episode's last one.
        const episodes = [{}, {}];
        for (let pass = 0; pass < 2; pass++) {
          const got = scoreDecisions(
            params,
            round.map(([r, m], i) => ({ record: r, memory: m, episode: episodes[i % 2] as object })),
            config.dim,
            cache,
          );
          expect(got.map((lp) => Array.from(lp))).toEqual(expected);
        }
        // Each decision's memory grown by a word, its own episode: the running sums carry on.
        const grown = round.map(([r, m], i): [DecisionRecord, number[]] => [r, [...m, i % V]]);
        const own = grown.map(() => ({}));
        // The same arrays, grown in place between the two rounds (the contract of `episode`).
        const memories = grown.map(([, m]) => [...m]);
        for (const extra of [0, 1]) {
          if (extra) for (const [i, m] of memories.entries()) m.push((3 * i) % V);
          const got = scoreDecisions(
            params,
            grown.map(([r], i) => ({ record: r, memory: memories[i], episode: own[i] as object })),
            config.dim,
            cache,
          );
          expect(got.map((lp) => Array.from(lp))).toEqual(
            grown.map(([r], i) => Array.from(denseScore(params, r, config.dim, memories[i] as number[]))),
          );
        }
        round.forEach(([r, m], i) => {
          expect(Array.from(scoreDecision(params, r, config.dim, m))).toEqual(expected[i]);
        });
      }),
      { numRuns: 150, seed: 11 },
    );
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
