import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { createRng, restoreRng } from './create-rng.js';

describe('createRng', () => {
  it('implements xoshiro128** exactly (reference vector for state [1, 2, 3, 4])', () => {
    // Computed with an independent Python implementation of the reference C code:
    // r = rotl(s1 * 5, 7) * 9; t = s1 << 9; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)
    // first output: rotl(2 * 5, 7) * 9 = 1280 * 9 = 11520.
    const rng = restoreRng({ key: 'vector', s: [1, 2, 3, 4], spare: null });
    expect([1, 2, 3, 4, 5, 6].map(() => rng.uint32())).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492,
    ]);
  });

  it('gives the same sequence for the same seed, and different ones for different seeds', () => {
    const draw = (seed: number | string) => {
      const rng = createRng(seed);
      return Array.from({ length: 50 }, () => rng.float());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw('run-a')).toEqual(draw('run-a'));
    expect(draw(7)).not.toEqual(draw(8));
    // A number and its string spelling are the same seed, by design (configs may carry either).
    expect(draw(7)).toEqual(draw('7'));
  });

  it('keeps float in [0, 1) and int in range, unbiased enough for a chi-square test', () => {
    const rng = createRng(1);
    const counts = new Array(10).fill(0);
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const f = rng.float();
      expect(f >= 0 && f < 1).toBe(true);
      counts[rng.int(10)]++;
    }
    const expected = n / 10;
    const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
    // 9 degrees of freedom: p = 0.001 at 27.88.
    expect(chi2).toBeLessThan(27.88);
  });

  it('int(min, max) stays in [min, max) for any range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        (seed, min, span) => {
          const rng = createRng(seed);
          for (let i = 0; i < 20; i++) {
            const x = rng.int(min, min + span);
            if (!(Number.isInteger(x) && x >= min && x < min + span)) return false;
          }
          return true;
        },
      ),
      { numRuns: 200 },
    );
  });

  it('shuffle returns a permutation and leaves its input alone (property)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.integer(), { maxLength: 50 }), (seed, items) => {
        const copy = items.slice();
        const shuffled = createRng(seed).shuffle(items);
        expect(items).toEqual(copy);
        expect(shuffled.slice().sort((a, b) => a - b)).toEqual(copy.slice().sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it('produces normal deviates with the requested mean and std', () => {
    const rng = createRng('normal');
    const n = 50_000;
    let sum = 0;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const x = rng.normal(3, 2);
      sum += x;
      sq += x * x;
    }
    const mean = sum / n;
    const std = Math.sqrt(sq / n - mean * mean);
    // Standard error of the mean: 2 / sqrt(50000) ≈ 0.009.
    expect(Math.abs(mean - 3)).toBeLessThan(0.05);
    expect(Math.abs(std - 2)).toBeLessThan(0.05);
  });

  it('forks are reproducible, independent of the parent draws, and distinct per label', () => {
    const a = createRng(42);
    const b = createRng(42);
    b.float();
    b.float();
    const forkA = a.fork('rollouts');
    const forkB = b.fork('rollouts');
    expect(forkA.key).toBe('42/rollouts');
    expect(Array.from({ length: 20 }, () => forkA.float())).toEqual(
      Array.from({ length: 20 }, () => forkB.float()),
    );

    const x = createRng(42).fork('x');
    const y = createRng(42).fork('y');
    const parent = createRng(42);
    const xs = Array.from({ length: 5000 }, () => x.float());
    const ys = Array.from({ length: 5000 }, () => y.float());
    const ps = Array.from({ length: 5000 }, () => parent.float());
    const corr = (u: number[], v: number[]) => {
      const mu = u.reduce((s, t) => s + t, 0) / u.length;
      const mv = v.reduce((s, t) => s + t, 0) / v.length;
      let num = 0;
      let du = 0;
      let dv = 0;
      for (let i = 0; i < u.length; i++) {
        num += (u[i]! - mu) * (v[i]! - mv);
        du += (u[i]! - mu) ** 2;
        dv += (v[i]! - mv) ** 2;
      }
      return num / Math.sqrt(du * dv);
    };
    // Independent uniform streams: |r| ~ 1/sqrt(5000) ≈ 0.014; 0.05 is > 3.5 standard errors.
    expect(Math.abs(corr(xs, ys))).toBeLessThan(0.05);
    expect(Math.abs(corr(xs, ps))).toBeLessThan(0.05);
    expect(xs.slice(0, 10)).not.toEqual(ys.slice(0, 10));
    // Nested forks compose by path.
    expect(createRng(42).fork('a').fork('b').float()).toBe(createRng('42/a').fork('b').float());
  });

  it('seedFor gives stable non-negative safe integers per label', () => {
    const rng = createRng(3);
    const s1 = rng.seedFor('env');
    expect(Number.isSafeInteger(s1) && s1 >= 0).toBe(true);
    expect(createRng(3).seedFor('env')).toBe(s1);
    expect(rng.seedFor('agent')).not.toBe(s1);
  });

  it('restores from getState and continues identically, including the Box–Muller spare', () => {
    const rng = createRng('ckpt');
    rng.float();
    rng.normal();
    const state = JSON.parse(JSON.stringify(rng.getState()));
    const resumed = restoreRng(state);
    const next = Array.from({ length: 10 }, () => [rng.normal(), rng.float(), rng.int(100)]);
    const again = Array.from({ length: 10 }, () => [resumed.normal(), resumed.float(), resumed.int(100)]);
    expect(again).toEqual(next);
  });

  it('rejects bad seeds and ranges with typed errors naming the input', () => {
    expect(() => createRng(1.5)).toThrow(/seed/);
    expect(() => createRng(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => createRng(1).int(0)).toThrow(/int range/);
    expect(() => createRng(1).int(5, 5)).toThrow(InvalidArgumentError);
    expect(() => createRng(1).pick([])).toThrow(/empty/);
    expect(() => restoreRng({} as never)).toThrow(/rng state/);
  });
});
