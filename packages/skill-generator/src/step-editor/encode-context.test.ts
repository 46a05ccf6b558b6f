import type { GenerationRecord } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeHistory } from '../history/summarize-history.js';
import { contextLayout, encodeContext, HISTORY_SCALARS, hashWords } from './encode-context.js';
import { buildStepIndex } from './step-index.js';
import { renderStepSkill } from './step-skill.js';

const index = buildStepIndex({ a: ['s zero', 's one', 's two'], b: ['s three'] });
const layout = contextLayout(index, 4, 2);

describe('encodeContext', () => {
  it('lays out family, goal, history scalars, per-step features and failure words', () => {
    // 3 family slots (a, b, unknown) + 4 goal + 7 scalars + 3 × 4 steps + 2 failure = 28
    expect(layout.size).toBe(28);
    const history: GenerationRecord[] = [
      {
        generation: 1,
        skill: renderStepSkill('a', ['s zero', 's one']),
        reward: 0.2,
        candidates: [
          { skill: renderStepSkill('a', ['s zero', 's one']), reward: 0.2 },
          { skill: renderStepSkill('a', ['s two']), reward: 0.8 },
        ],
        failures: [{ trajectoryId: 'f', reward: 0, passed: false, failingStep: 5, reason: 'timeout' }],
        successes: [{ trajectoryId: 's', reward: 1, passed: true }],
      },
    ];
    const v = encodeContext(
      { family: 'a', prompt: 'Your task is to: heat an egg' },
      summarizeHistory(history),
      undefined,
      index,
      layout,
    );
    expect(Array.from(v.slice(0, 3))).toEqual([1, 0, 0]);
    const goal = Array.from(v.slice(3, 7));
    expect(Math.hypot(...goal)).toBeCloseTo(1, 6);
    expect(HISTORY_SCALARS).toHaveLength(7);
    // has history 1; last 0.2; best 0.2; window mean 0.2; trend 0; failure rate 1/2; failing step 5/(5+5)
    const scalars = Array.from(v.slice(7, 14));
    for (const [i, x] of [1, 0.2, 0.2, 0.2, 0, 0.5, 0.5].entries()) expect(scalars[i]).toBeCloseTo(x, 6);
    // The carried skill (no currentSkill given) and the best skill both hold s0 and s1.
    expect(Array.from(v.slice(14, 18))).toEqual([1, 1, 0, 0]);
    expect(Array.from(v.slice(18, 22))).toEqual([1, 1, 0, 0]);
    // Credit: window mean (0.2 + 0.8) / 2 = 0.5; s0, s1 in the 0.2 skill → −0.3; s2 in the 0.8 one → +0.3.
    const credit = Array.from(v.slice(22, 26));
    for (const [i, x] of [-0.3, -0.3, 0.3, 0].entries()) expect(credit[i]).toBeCloseTo(x, 6);
    expect(Math.hypot(...Array.from(v.slice(26, 28)))).toBeCloseTo(1, 6);
  });

  it('puts an unknown family in the last slot and an explicit current skill over the carried one', () => {
    const v = encodeContext(
      { family: 'zzz', prompt: '' },
      summarizeHistory([]),
      renderStepSkill('zzz', ['s three']),
      index,
      layout,
    );
    expect(Array.from(v.slice(0, 3))).toEqual([0, 0, 1]);
    expect(Array.from(v.slice(3, 7))).toEqual([0, 0, 0, 0]); // no words, no goal features
    expect(Array.from(v.slice(14, 18))).toEqual([0, 0, 0, 1]);
  });

  it('hashWords gives unit length for any text with a word (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 1, max: 50 }), (text, buckets) => {
        const out = new Float32Array(buckets + 2);
        hashWords(text, buckets, out, 1);
        expect(out[0]).toBe(0);
        expect(out[buckets + 1]).toBe(0);
        const norm = Math.hypot(...Array.from(out));
        expect(norm).toBeCloseTo(/[a-z0-9]/i.test(text) ? 1 : 0, 5);
      }),
    );
  });
});
