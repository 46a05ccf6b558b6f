import { createRng } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, resolveAgentConfig } from './agent-config.js';
import { packDecisionBatch } from './decision-batch.js';
import type { DecisionRecord } from './decision-record.js';
import { type AgentParameters, initParameters, PARAMETER_NAMES } from './parameters.js';
import { scoreDecision } from './score-decision.js';
import { backwardDecisions, type ContextRoute, forwardDecisions, skillReads } from './typed-network.js';

const V = 30;
const config = resolveAgentConfig({ dim: 4, hidden: 5 });
const d = config.dim;

const ids = fc.array(fc.integer({ min: 0, max: V - 1 }), { maxLength: 6 });
const record: fc.Arbitrary<DecisionRecord> = fc
  .record({ C: fc.integer({ min: 1, max: 6 }), S: fc.integer({ min: 0, max: 5 }), cond: fc.boolean() })
  .chain(({ C, S, cond }) =>
    fc.record({
      v: fc.constant(1 as const),
      candidates: fc.constant(Array.from({ length: C }, (_, i) => `a${i}`)),
      chosen: fc.integer({ min: 0, max: C - 1 }),
      temperature: fc.double({ min: 0.3, max: 2, noNaN: true }),
      condition: fc.constant(cond ? (1 as const) : (0 as const)),
      cand: fc.array(ids, { minLength: C, maxLength: C }),
      goal: ids,
      obs: ids,
      hist: ids,
      feats: fc.array(
        fc.array(fc.double({ min: 0, max: 4, noNaN: true }), {
          minLength: FEATURE_COUNT,
          maxLength: FEATURE_COUNT,
        }),
        { minLength: C, maxLength: C },
      ),
      done: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: S, maxLength: S }),
      rank: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: S, maxLength: S }),
      sign: fc.array(fc.constantFrom(1, -1), { minLength: S, maxLength: S }),
      // Not unique: a clause listed twice for a candidate counts with its last similarity.
      sims:
        S === 0
          ? fc.constant([])
          : fc.array(
              fc.tuple(
                fc.integer({ min: 0, max: C - 1 }),
                fc.integer({ min: 0, max: S - 1 }),
                fc.double({ min: 0.05, max: 1, noNaN: true }),
              ),
              { maxLength: C * S + 2 },
            ),
    }),
  );
const episode = fc.array(fc.tuple(record, ids), { minLength: 1, maxLength: 4 });

function busy(seed: number, tau: number): AgentParameters {
  const p = initParameters(config, V, seed);
  const rng = createRng(seed).fork('busy');
  for (const name of PARAMETER_NAMES) p[name] = p[name].map(() => rng.normal(0, 0.7));
  p.prior.set([6, tau, 2, 1.5]);
  return p;
}

describe('forwardDecisions', () => {
  it('computes scoreDecision’s log-probs and entropies for every decision (property)', () => {
    fc.assert(
      fc.property(
        fc.array(episode, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(4, 0.5, -2),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom<ContextRoute>('auto', 'direct', 'words'),
        (rows, tau, seed, route) => {
          const params = busy(seed, tau);
          const records = rows.map((r) => r.map(([rec]) => rec));
          const memories = rows.map((r) => r.map(([, mem]) => mem));
          const batch = packDecisionBatch(records, { vocabularySize: V, memories });
          const pass = forwardDecisions(params, batch, d, skillReads(params.prior, batch), route);
          records.forEach((row, b) => {
            row.forEach((rec, t) => {
              const spec = scoreDecision(params, rec, d, memories[b]?.[t] ?? []);
              const at = b * batch.T + t;
              expect(pass.logProbs[at]).toBeCloseTo(spec[rec.chosen] as number, 10);
              const entropy = -Array.from(spec).reduce((a, lp) => a + Math.exp(lp) * lp, 0);
              expect(pass.entropy[at]).toBeCloseTo(entropy, 10);
            });
          });
        },
      ),
      { numRuns: 150, seed: 20261201 },
    );
  });
});

describe('backwardDecisions', () => {
  it.each<ContextRoute>(['direct', 'words'])(
    'is the gradient of the forward pass, context %s (central differences in float64)',
    (route) => {
      const rng = createRng('finite-differences');
      const [rows] = fc.sample(fc.array(episode, { minLength: 3, maxLength: 3 }), { numRuns: 1, seed: 7 });
      const records = (rows ?? []).map((r) => r.map(([rec]) => rec));
      const memories = (rows ?? []).map((r) => r.map(([, mem]) => mem));
      const batch = packDecisionBatch(records, { vocabularySize: V, memories });
      const params = busy(11, 3);
      const reads = skillReads(params.prior, batch);
      const size = batch.B * batch.T;
      const gl = Float64Array.from({ length: size }, () => rng.normal());
      const ge = Float64Array.from({ length: size }, () => rng.normal());
      const objective = (p: AgentParameters) => {
        const out = forwardDecisions(p, batch, d, reads, route);
        let s = 0;
        for (let i = 0; i < size; i++) {
          s +=
            (gl[i] as number) * (out.logProbs[i] as number) + (ge[i] as number) * (out.entropy[i] as number);
        }
        return s;
      };
      const pass = forwardDecisions(params, batch, d, reads, route);
      const grads = backwardDecisions(params, batch, d, pass, gl, ge);
      let checked = 0;
      for (const name of PARAMETER_NAMES) {
        if (name === 'prior') continue;
        // The passes only read the weights: a float64 copy takes a nudge float32 would round away.
        for (let i = 0; i < params[name].length; i += Math.max(1, Math.floor(params[name].length / 12))) {
          const h = 1e-5;
          const plus = { ...params, [name]: Float64Array.from(params[name]) as unknown as Float32Array };
          const minus = { ...params, [name]: Float64Array.from(params[name]) as unknown as Float32Array };
          (plus[name] as Float32Array)[i] = (params[name][i] as number) + h;
          (minus[name] as Float32Array)[i] = (params[name][i] as number) - h;
          const fd = (objective(plus) - objective(minus)) / (2 * h);
          expect(grads[name][i] as number, `${name}[${i}]`).toBeCloseTo(fd, 6);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(40);
    },
  );
});
