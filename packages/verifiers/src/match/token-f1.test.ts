import type { Task, Trajectory } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenF1, tokenF1Score } from './token-f1.js';

const task = (answer: Task['answer']): Task => ({
  id: 't',
  family: 'qa',
  split: 'test',
  prompt: 'Q',
  answer,
});
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'qa',
  condition: 0,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});

describe('tokenF1Score', () => {
  it('matches a hand computation', () => {
    // prediction "the cat sat on mat" → [cat, sat, on, mat]; reference "a cat on the mat" → [cat, on, mat].
    // common = 3; precision 3/4, recall 3/3; F1 = 2·0.75·1/(1.75) = 6/7.
    const s = tokenF1Score('the cat sat on mat', 'a cat on the mat');
    expect(s.precision).toBeCloseTo(0.75, 12);
    expect(s.recall).toBe(1);
    expect(s.f1).toBeCloseTo(6 / 7, 12);
    // Repeated tokens count once per occurrence: [x, x, y] vs [x, y, y] → common 2, P = R = 2/3.
    expect(tokenF1Score('x x y', 'x y y').f1).toBeCloseTo(2 / 3, 12);
    expect(tokenF1Score('', '').f1).toBe(1);
    expect(tokenF1Score('the', 'cat').f1).toBe(0);
  });

  it('is symmetric, in [0, 1], and 1 on identical non-empty texts', () => {
    const words = fc
      .array(fc.constantFrom('cat', 'dog', 'sat', 'on', 'mat', 'the'), { maxLength: 8 })
      .map((w) => w.join(' '));
    fc.assert(
      fc.property(words, words, (a, b) => {
        const ab = tokenF1Score(a, b).f1;
        const ba = tokenF1Score(b, a).f1;
        return Math.abs(ab - ba) < 1e-12 && ab >= 0 && ab <= 1 && tokenF1Score(a, a).f1 === 1;
      }),
    );
  });
});

describe('tokenF1', () => {
  it('scores the best reference and passes from the 0.5 default threshold', async () => {
    const v = tokenF1();
    const verdict = await v.verify(task(['Barack Obama', 'President Obama']), traj('Obama'));
    // vs "barack obama": P = 1, R = 1/2 → F1 = 2/3, the best of the two.
    expect(verdict.score).toBeCloseTo(2 / 3, 12);
    expect(verdict.passed).toBe(true);
    expect(verdict.reason).toMatch(/token F1 0\.667/);
    expect((await tokenF1({ threshold: 0.9 }).verify(task('Barack Obama'), traj('Obama'))).passed).toBe(
      false,
    );
  });
});
