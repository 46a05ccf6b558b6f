import type { AdvantageBatch } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createGrpo } from './grpo.js';
import { createSkillc, type SkillcOptions } from './skillc.js';

// Task T: with the skill (z=1) [1, 1, 1, 0] (success rate 0.75), without (z=0) [1, 0, 0, 0] (0.25) → Δ̂ = 0.5.
// Task U: z=1 [0, 0], z=0 [1, 0] → Δ̂ = −0.5, no correction.
const batch = {
  scores: [1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0],
  groupIds: ['T', 'T', 'T', 'T', 'T', 'T', 'T', 'T', 'U', 'U', 'U', 'U'],
  conditions: [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0],
};

// T, both conditions: four 1s and four 0s, mean 0.5, unbiased std sqrt(8·0.25/7) = sqrt(2/7) = 0.5345224838,
// s = 0.5345224848 with ε → A1 = ±0.5/s = ±0.9354125967.
const s = Math.sqrt(2 / 7) + 1e-6;
const a1 = 0.5 / s;
// Within T's conditions, on T's scale s: z=1 (mean 0.75) deviations 0.25 / −0.75, z=0 (mean 0.25) 0.75 / −0.25.
// Per-cell stds (the additive ablation's A2): both cells have unbiased std 0.5.
const d = 0.5 + 1e-6;

describe('skillc (multiplicative, the default)', () => {
  it('mixes the two streams and moves credit by 1 + C toward skill-free success (w = 0.4, λ = 1)', () => {
    const { advantages, metrics } = createSkillc().estimate(batch);
    // C(T) = 1 · clip(0.5, 0, 1) = 0.5. Successes only (gate 'success'): z=1 ÷ 1.5, z=0 × 1.5.
    const z1Pass = (0.6 * 0.5 + 0.4 * 0.25) / s / 1.5; // 0.4/s/1.5 = 0.4988867183
    const z1Fail = (0.6 * -0.5 + 0.4 * -0.75) / s; // −0.6/s = −1.1224951161 (failed: not corrected)
    const z0Pass = ((0.6 * 0.5 + 0.4 * 0.75) / s) * 1.5; // 0.6/s·1.5 = 1.6837426742
    const z0Fail = (0.6 * -0.5 + 0.4 * -0.25) / s; // −0.4/s = −0.7483300774
    expect(z1Pass).toBeCloseTo(0.4988867183, 9);
    expect(z0Pass).toBeCloseTo(1.6837426742, 9);
    // U: scores [0, 0, 1, 0], mean 0.25, unbiased std 0.5, u = 0.5 + ε. A1: fails −0.25/u, pass 0.75/u.
    // A2 on U's scale: z=1 [0, 0] → 0; z=0 [1, 0] (mean 0.5) → ±0.5/u.
    const u = 0.5 + 1e-6;
    expectAdvantages(advantages, [
      z1Pass,
      z1Pass,
      z1Pass,
      z1Fail,
      z0Pass,
      z0Fail,
      z0Fail,
      z0Fail,
      -0.15 / u, // 0.6 · (−0.25) + 0.4 · 0
      -0.15 / u,
      0.65 / u, // 0.6 · 0.75 + 0.4 · 0.5
      -0.35 / u, // 0.6 · (−0.25) − 0.4 · 0.5
    ]);
    expect(metrics).toMatchObject({
      gap_mean: 0, // (0.5 − 0.5)/2
      gap_positive: 1,
      paired_tasks: 2,
      correction_mean: 0.5,
      corrected: 4, // T's four successes
      groups_all_pass: 0,
      groups_all_fail: 0,
    });
  });

  it('keeps with-skill successes positive where the additive form gave them −0.44 (README example)', () => {
    // ρ = 0.5: four z=1 successes, four z=0 failures. Δ̂ = 1 − 0 = 1, C = 1. Every cell is constant, so A2 = 0
    // and B = 0.6 · A1 = ±0.6 · 0.9354125967 = ±0.5612475580.
    const example = { scores: [1, 1, 1, 1, 0, 0, 0, 0], groupIds: [1, 1, 1, 1, 1, 1, 1, 1] };
    const b = { ...example, conditions: [1, 1, 1, 1, 0, 0, 0, 0] };
    const additive = createSkillc({ correction: 'additive' }).estimate(b).advantages;
    const multiplicative = createSkillc().estimate(b).advantages;
    // Additive: 0.5612475580 − 1 = −0.4387524420 for each success.
    expect(additive[0]).toBeCloseTo(0.6 * a1 - 1, 12);
    expect(additive[0]).toBeCloseTo(-0.438752442, 9);
    // Multiplicative: 0.5612475580 / (1 + 1) = 0.2806237790; failures keep −0.5612475580.
    expectAdvantages(multiplicative, [...Array(4).fill((0.6 * a1) / 2), ...Array(4).fill(-0.6 * a1)]);
    expect(multiplicative[0]).toBeCloseTo(0.280623779, 9);
  });

  it("gate 'all' moves failures too (blame ÷ (1 + C) without the skill, × (1 + C) with it); λ_k by family", () => {
    const { advantages } = createSkillc({ w: 0, gate: 'all', lambdaByFamily: { heat: 0.2 } }).estimate({
      ...batch,
      families: Array.from({ length: 12 }, () => 'heat'),
    });
    // C = 0.2 · 0.5 = 0.1 on every rollout of T.
    expectAdvantages(advantages.slice(0, 8), [
      a1 / 1.1,
      a1 / 1.1,
      a1 / 1.1,
      -a1 * 1.1,
      a1 * 1.1,
      -a1 / 1.1,
      -a1 / 1.1,
      -a1 / 1.1,
    ]);
  });

  it('decides success (and so Δ̂) with successThreshold when given', () => {
    const b = { scores: [0.6, 0.6, 0.2, 0.2], groupIds: [1, 1, 1, 1], conditions: [1, 1, 0, 0] };
    // Threshold 0.5: z=1 succeeds 2/2, z=0 0/2 → Δ̂ = 1, C = 1: the z=1 rollouts are halved.
    // Without it every score > 0 succeeds: Δ̂ = 1 − 1 = 0, nothing moves.
    const withThreshold = createSkillc({ w: 0, successThreshold: 0.5 }).estimate(b);
    const plain = createSkillc({ w: 0, lambda: 0 }).estimate(b).advantages;
    expectAdvantages(withThreshold.advantages, [
      (plain[0] as number) / 2,
      (plain[1] as number) / 2,
      plain[2] as number,
      plain[3] as number,
    ]);
    expect(withThreshold.metrics.gap_mean).toBe(1);
    expect(createSkillc({ w: 0 }).estimate(b).advantages).toEqual(plain);
  });

  it('ranks a skill-free success first at any λ > 0 even with unequal condition sizes', () => {
    // ρ = 0.8: z=1 has 5/8 successes, z=0 1/2 → Δ̂ = 0.125. On each condition's own (unbiased) std, as the
    // additive form keeps it, A2 of a success is 0.375/0.5175491695 = 0.7245688 with the skill and
    // 0.5/0.7071067812 = 0.7071068 without: at a small λ the with-skill success ranks first.
    const b = {
      scores: [1, 1, 1, 1, 1, 0, 0, 0, 1, 0],
      groupIds: Array(10).fill('x'),
      conditions: [1, 1, 1, 1, 1, 1, 1, 1, 0, 0],
    };
    const additive = createSkillc({ correction: 'additive', lambda: 0.01 }).estimate(b).advantages;
    expect(additive[0] as number).toBeGreaterThan(additive[8] as number);
    const multiplicative = createSkillc({ lambda: 0.01 }).estimate(b).advantages;
    expect(multiplicative[8] as number).toBeGreaterThan(multiplicative[0] as number);
  });

  it('centres z=1 on the higher condition mean once corrected, when graded means disagree with Δ̂', () => {
    // Threshold 1: z=1 [1, 1, 0] succeeds 2/3 (mean 2/3), z=0 [1, 0.9, 0.9] 1/3 (mean 0.9333) → Δ̂ = 1/3 > 0,
    // yet the z=0 mean is the higher. Own-mean centring would give the z=1 success A2 = 0.3333/σ and the z=0
    // one 0.0667/σ; once corrected z=1 is centred on 0.9333 and z=0 on 0.6667, so the z=0 success is ahead.
    const b = {
      scores: [1, 1, 0, 1, 0.9, 0.9],
      groupIds: [1, 1, 1, 1, 1, 1],
      conditions: [1, 1, 1, 0, 0, 0],
    };
    const options = { successThreshold: 1, w: 0.4 };
    const plain = createSkillc({ ...options, lambda: 0 }).estimate(b).advantages;
    expect(plain[0] as number).toBeGreaterThan(plain[3] as number);
    const corrected = createSkillc({ ...options, lambda: 0.01 }).estimate(b).advantages;
    expect(corrected[3] as number).toBeGreaterThan(corrected[0] as number);
    // By hand: task mean 0.8, Σd² = 0.04·3 + 0.64 + 0.01·2 = 0.78, unbiased std sqrt(0.156) = 0.3949684.
    const sigma = Math.sqrt(0.78 / 5) + 1e-6;
    const b0 = (0.6 * 0.2 + 0.4 * (1 - 2 / 3)) / sigma;
    expect(corrected[3]).toBeCloseTo(b0 * (1 + 0.01 / 3), 12); // C = 0.01 · 1/3
  });

  it('takes λ per sample from batch.attributionStrengths, over options.lambda and lambdaByFamily', () => {
    const attributionStrengths = [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0, 0];
    const fromBatch = createSkillc({ w: 0, gate: 'all', lambda: 3, lambdaByFamily: { heat: 5 } }).estimate({
      ...batch,
      attributionStrengths,
    });
    const fromOption = createSkillc({ w: 0, gate: 'all', lambda: 0.2 }).estimate(batch);
    expect(fromBatch.advantages).toEqual(fromOption.advantages);
    expect(fromBatch.metrics.correction_mean).toBeCloseTo(0.1, 15);
    // A retired type (λ = 0) in a task with Δ̂ > 0 is left alone.
    const retired = createSkillc({ w: 0 }).estimate({ ...batch, attributionStrengths: Array(12).fill(0) });
    expect(retired.advantages).toEqual(createSkillc({ w: 0, lambda: 0 }).estimate(batch).advantages);
    expect(retired.metrics.corrected).toBe(0);
  });

  it('ignores a `lambdas` field (removed before the first release: attributionStrengths is the field)', () => {
    const strengths = [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0, 0];
    const est = createSkillc({ w: 0, gate: 'all', lambda: 3 });
    const legacy = est.estimate({ ...batch, lambdas: strengths } as AdvantageBatch).advantages;
    expect(legacy).toEqual(est.estimate(batch).advantages);
    expect(legacy).not.toEqual(est.estimate({ ...batch, attributionStrengths: strengths }).advantages);
  });

  it('checks batch.attributionStrengths: one finite number >= 0 per sample', () => {
    const est = createSkillc();
    const bad = (values: unknown[]) => () =>
      est.estimate({ ...batch, attributionStrengths: values as number[] } as AdvantageBatch);
    expect(bad([...Array(11).fill(1), -0.5])).toThrow(/batch\.attributionStrengths\[11\].*>= 0/);
    expect(bad([Number.NaN, ...Array(11).fill(1)])).toThrow(/batch\.attributionStrengths\[0\]/);
    expect(bad(['1', ...Array(11).fill(1)])).toThrow(InvalidArgumentError);
    expect(bad([1, 1])).toThrow(/batch\.attributionStrengths.*expected 12 entries/);
  });

  it('needs conditions, families with lambdaByFamily (unless the batch has attributionStrengths), and 0/1 conditions', () => {
    expect(() => createSkillc().estimate({ scores: [1], groupIds: [1] })).toThrow(MissingFieldError);
    const byFamily = createSkillc({ lambdaByFamily: { heat: 1 } });
    expect(() => byFamily.estimate({ scores: [1], groupIds: [1], conditions: [1] })).toThrow(/"families"/);
    expect(() =>
      byFamily.estimate({ scores: [1], groupIds: [1], conditions: [1], attributionStrengths: [1] }),
    ).not.toThrow();
    expect(() => createSkillc().estimate({ scores: [1], groupIds: [1], conditions: [2] })).toThrow(
      /batch\.conditions\[0\]/,
    );
    expect(() => createSkillc({ w: 1.5 })).toThrow(/options\.w/);
    expect(() => createSkillc({ correction: 'subtract' } as unknown as SkillcOptions)).toThrow(
      /options\.correction/,
    );
    expect(() => createSkillc({ preset: 'tf' } as unknown as SkillcOptions)).toThrow(/options\.preset/);
  });

  it('takes std, ε and the one-sample rule from a preset; options beside it override it', () => {
    // A one-sample task [0.7] and a pair [1, 0] (Δ̂ irrelevant at λ = 0).
    const b = { scores: [0.7, 1, 0], groupIds: [1, 2, 2], conditions: [1, 1, 0] };
    const at = (options: SkillcOptions) =>
      createSkillc({ w: 0, lambda: 0, ...options }).estimate(b).advantages;
    // verl: the lone task keeps its raw score / (1 + ε); the pair: unbiased std sqrt(0.5) = 0.7071067812.
    expectAdvantages(at({ preset: 'verl' }), [
      0.7 / (1 + 1e-6),
      0.5 / (Math.sqrt(0.5) + 1e-6),
      -0.5 / (Math.sqrt(0.5) + 1e-6),
    ]);
    // trl: ε = 1e-4, the lone task 0. art: population std 0.5.
    expectAdvantages(at({ preset: 'trl' }), [
      0,
      0.5 / (Math.sqrt(0.5) + 1e-4),
      -0.5 / (Math.sqrt(0.5) + 1e-4),
    ]);
    expectAdvantages(at({ preset: 'art' }), [0, 0.5 / (0.5 + 1e-6), -0.5 / (0.5 + 1e-6)]);
    expectAdvantages(at({ preset: 'art', epsilon: 0 }), [0, 1, -1]);
  });
});

describe('skillc (correction additive, the earlier reconstruction kept as an ablation)', () => {
  it('combines the two streams and subtracts / adds C = λ·max(mean gap, 0) (w = 0.4, λ = 1)', () => {
    const { advantages, metrics } = createSkillc({ correction: 'additive' }).estimate(batch);
    // C(T) = 1 · max(0.75 − 0.25, 0) = 0.5: successful z=1 rollouts −0.5, successful z=0 rollouts +0.5.
    const z1Pass = 0.6 * a1 + 0.4 * (0.25 / d) - 0.5; // 0.2612471580
    const z1Fail = 0.6 * -a1 + 0.4 * (-0.75 / d); // −1.1612463580 (failed: not corrected)
    const z0Pass = 0.6 * a1 + 0.4 * (0.75 / d) + 0.5; // 1.6612463580
    const z0Fail = 0.6 * -a1 + 0.4 * (-0.25 / d); // −0.7612471580
    expect(z1Pass).toBeCloseTo(0.26124715801885545, 12);
    // U: A1 over [0, 0, 1, 0]: mean 0.25, unbiased std 0.5; A2: z=1 constant → 0, z=0 [1, 0] std sqrt(0.5).
    const u1 = 0.75 / d;
    const u0 = 0.5 / (Math.sqrt(0.5) + 1e-6);
    const uFail = -0.25 / d;
    expectAdvantages(advantages, [
      z1Pass,
      z1Pass,
      z1Pass,
      z1Fail,
      z0Pass,
      z0Fail,
      z0Fail,
      z0Fail,
      0.6 * uFail,
      0.6 * uFail,
      0.6 * u1 + 0.4 * u0,
      0.6 * uFail - 0.4 * u0,
    ]);
    expect(metrics).toMatchObject({
      gap_mean: 0,
      gap_positive: 1,
      paired_tasks: 2,
      correction_mean: 0.5,
      corrected: 4,
    });
  });

  it("gate 'all' shifts every rollout of the task by ∓C", () => {
    const { advantages } = createSkillc({
      correction: 'additive',
      w: 0,
      gate: 'all',
      lambdaByFamily: { heat: 0.2 },
    }).estimate({ ...batch, families: Array.from({ length: 12 }, () => 'heat') });
    expectAdvantages(advantages.slice(0, 8), [
      a1 - 0.1,
      a1 - 0.1,
      a1 - 0.1,
      -a1 - 0.1,
      a1 + 0.1,
      -a1 + 0.1,
      -a1 + 0.1,
      -a1 + 0.1,
    ]);
  });

  it('is in reward units: ALFWorld-style 10·won makes C ten times larger', () => {
    const b = { scores: [1, 1, 0, 0], groupIds: [1, 1, 1, 1], conditions: [1, 1, 0, 0] };
    const tenfold = { ...b, scores: b.scores.map((r) => 10 * r) };
    const additive = createSkillc({ correction: 'additive' });
    expect(additive.estimate(tenfold).metrics.correction_mean).toBe(10);
    expect(additive.estimate(b).metrics.correction_mean).toBe(1);
    // The default measures Δ̂ on outcomes: C = 1 either way.
    expect(createSkillc().estimate(tenfold).metrics.correction_mean).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// PAPERS.md's five properties, each over random batches.

type Rule = 'sign' | 'successes' | 'threshold';

interface Row {
  task: number;
  z: number;
  pass: boolean;
  /** Reward level 0..4 for graded batches. */
  level: number;
  lambda: number;
}

// λ from the whole range, or small (where a base ordering that favours z=1 is not yet overcome by 1 + C).
const lambdaArb = (min: number) =>
  fc.oneof(fc.double({ min, max: 5, noNaN: true }), fc.double({ min, max: 0.05, noNaN: true }));

const rowsArb = (lambdaMin = 0) =>
  fc.array(
    fc.record({
      task: fc.integer({ min: 0, max: 3 }),
      z: fc.integer({ min: 0, max: 1 }),
      pass: fc.boolean(),
      level: fc.integer({ min: 0, max: 4 }),
      lambda: lambdaArb(lambdaMin),
    }),
    { minLength: 1, maxLength: 32 },
  );

const stdArb = fc.constantFrom('unbiased', 'population') as fc.Arbitrary<'unbiased' | 'population'>;

const settingsArb = fc.record({
  w: fc.double({ min: 0, max: 1, noNaN: true }),
  lambda: lambdaArb(0),
  gate: fc.constantFrom('success', 'all') as fc.Arbitrary<'success' | 'all'>,
  scope: fc.constantFrom('group', 'batch') as fc.Arbitrary<'group' | 'batch'>,
  std: stdArb,
  epsilon: fc.constantFrom(0, 1e-6, 1e-4),
  perSampleLambdas: fc.boolean(),
});
type Settings = typeof settingsArb extends fc.Arbitrary<infer T> ? T : never;

function optionsOf(settings: Settings): SkillcOptions {
  const { perSampleLambdas: _, ...options } = settings;
  return options;
}

/** Success rate with the skill minus without, per task, on the rows' outcomes (NaN when a side is empty). */
function gaps(rows: Row[], passed: (i: number) => boolean): Map<number, number> {
  const out = new Map<number, number>();
  for (const task of new Set(rows.map((r) => r.task))) {
    const rate = (z: number) => {
      const idx = rows.flatMap((r, i) => (r.task === task && r.z === z ? [i] : []));
      return idx.length === 0 ? Number.NaN : idx.filter(passed).length / idx.length;
    };
    out.set(task, rate(1) - rate(0));
  }
  return out;
}

function graded(rows: Row[], settings: Settings, scale = 1): AdvantageBatch {
  return {
    scores: rows.map((r) => r.level * scale),
    groupIds: rows.map((r) => r.task),
    conditions: rows.map((r) => r.z),
    successes: rows.map((r) => r.pass),
    ...(settings.perSampleLambdas ? { attributionStrengths: rows.map((r) => r.lambda) } : {}),
  };
}

describe('skillc property 1: signs kept', () => {
  it('gives every success in a mixed task A > 0 and every failure A <= 0 (two-level rewards, w < 1)', () => {
    const levels = fc.oneof(
      // Success decided by score > 0.
      fc.record({
        rule: fc.constant<Rule>('sign'),
        lo: fc.constantFrom(0, -1, -0.25),
        hi: fc.constantFrom(1, 10, 0.3),
        t: fc.constant(1),
      }),
      // By the batch's successes, or a threshold, with any two levels lo < hi.
      fc.record({
        rule: fc.constantFrom<Rule>('successes', 'threshold'),
        lo: fc.double({ min: -5, max: 5, noNaN: true }),
        hi: fc.double({ min: 0.01, max: 10, noNaN: true }),
        t: fc.double({ min: 0.01, max: 1, noNaN: true }),
      }),
    );
    fc.assert(
      fc.property(rowsArb(), settingsArb, levels, (rows, settings, level) => {
        const w = Math.min(settings.w, 0.99);
        const lo = level.lo;
        const hi = level.rule === 'sign' ? level.hi : level.lo + level.hi;
        const options: SkillcOptions = { ...optionsOf(settings), w };
        if (level.rule === 'threshold') options.successThreshold = lo + (hi - lo) * level.t;
        const b: AdvantageBatch = {
          ...graded(rows, settings),
          scores: rows.map((r) => (r.pass ? hi : lo)),
        };
        if (level.rule !== 'successes') delete b.successes;
        const { advantages } = createSkillc(options).estimate(b);
        rows.forEach((row, i) => {
          const task = rows.filter((r) => r.task === row.task);
          if (!task.some((r) => r.pass) || task.every((r) => r.pass)) return;
          if (row.pass) expect(advantages[i] as number, `success ${i}`).toBeGreaterThan(0);
          else expect(advantages[i] as number, `failure ${i}`).toBeLessThanOrEqual(0);
        });
      }),
    );
  });
});

describe('skillc property 2: credit redirected', () => {
  it('ranks a skill-free success at least as high as a with-skill success of the same reward (Δ̂ > 0, λ > 0)', () => {
    fc.assert(
      fc.property(rowsArb(0.001), settingsArb, (rows, settings) => {
        const options = { ...optionsOf(settings), lambda: Math.max(settings.lambda, 0.001) };
        const { advantages } = createSkillc(options).estimate(graded(rows, settings));
        const gap = gaps(rows, (i) => rows[i]?.pass === true);
        rows.forEach((free, i) => {
          if (free.z !== 0 || !free.pass || !((gap.get(free.task) as number) > 0)) return;
          rows.forEach((dependent, j) => {
            if (dependent.z !== 1 || !dependent.pass || dependent.task !== free.task) return;
            if (dependent.level !== free.level) return;
            expect(advantages[i] as number, `z=0 ${i} vs z=1 ${j}`).toBeGreaterThanOrEqual(
              (advantages[j] as number) - 1e-12,
            );
          });
        });
      }),
      // The cases where own-condition centring breaks the order are rare among random batches (about one
      // in 2000: graded means against the success rates, a small λ): enough runs to meet them.
      { numRuns: 4000 },
    );
  });

  it('moves credit monotonically as λ grows: z=0 rollouts never go down, z=1 rollouts never go up', () => {
    fc.assert(
      fc.property(
        rowsArb(),
        settingsArb,
        fc.double({ min: 0, max: 3, noNaN: true }),
        (rows, settings, step) => {
          const b = graded(rows, { ...settings, perSampleLambdas: false });
          const low = createSkillc({ ...optionsOf(settings) }).estimate(b).advantages;
          const high = createSkillc({ ...optionsOf(settings), lambda: settings.lambda + step }).estimate(
            b,
          ).advantages;
          rows.forEach((row, i) => {
            const before = low[i] as number;
            const after = high[i] as number;
            const slack = 1e-12 * Math.max(1, Math.abs(before));
            if (row.z === 0) expect(after, `z=0 ${i}`).toBeGreaterThanOrEqual(before - slack);
            else expect(after, `z=1 ${i}`).toBeLessThanOrEqual(before + slack);
          });
        },
      ),
    );
  });

  it('moves credit monotonically as Δ̂ grows (w = 0: relabel a z=0 success and a z=1 failure)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.constantFrom('success', 'all') as fc.Arbitrary<'success' | 'all'>,
        (n1, n0, k1Raw, k0Raw, lambda, gate) => {
          // z=1: k1 successes of n1 (at least one failure); z=0: k0 of n0 (at least one success).
          const k1 = Math.min(k1Raw, n1 - 1);
          const k0 = Math.min(k0Raw, n0);
          const make = (passes1: number, passes0: number, size1: number, size0: number) => ({
            scores: [
              ...Array.from({ length: size1 }, (_, i) => (i < passes1 ? 1 : 0)),
              ...Array.from({ length: size0 }, (_, i) => (i < passes0 ? 1 : 0)),
            ],
            groupIds: Array(size1 + size0).fill('x'),
            conditions: [...Array(size1).fill(1), ...Array(size0).fill(0)],
          });
          // Moving one success from z=0 to z=1 and one failure back keeps every reward, hence A1.
          const before = make(k1, k0, n1, n0);
          const after = make(k1 + 1, k0 - 1, n1, n0);
          const est = createSkillc({ w: 0, lambda, gate });
          const a = est.estimate(before);
          const b = est.estimate(after);
          expect(b.metrics.gap_mean as number).toBeGreaterThan(a.metrics.gap_mean as number);
          // The value of a success in each condition (all successes of a condition share it at w = 0).
          const value = (adv: Float64Array, batch: typeof before, z: number) =>
            adv.find((_, i) => batch.conditions[i] === z && batch.scores[i] === 1);
          const z1Before = value(a.advantages, before, 1);
          const z1After = value(b.advantages, after, 1) as number;
          const z0Before = value(a.advantages, before, 0) as number;
          const z0After = value(b.advantages, after, 0);
          if (z1Before !== undefined) expect(z1After).toBeLessThanOrEqual(z1Before + 1e-12);
          if (z0After !== undefined) expect(z0After).toBeGreaterThanOrEqual(z0Before - 1e-12);
        },
      ),
    );
  });
});

describe('skillc property 3: one-sided', () => {
  it('is the plain mix (1 − w)·A1 + w·A2 in every task with Δ̂ <= 0, whatever λ', () => {
    fc.assert(
      fc.property(rowsArb(), settingsArb, (rows, settings) => {
        const b = graded(rows, settings);
        const options = optionsOf(settings);
        const { advantages } = createSkillc(options).estimate(b);
        const grpoOptions = { std: settings.std, epsilon: settings.epsilon, singleton: 'zero' as const };
        const global = createGrpo(grpoOptions).estimate(
          settings.scope === 'group' ? b : { scores: b.scores, groupIds: rows.map(() => 0) },
        ).advantages;
        const gap = gaps(rows, (i) => rows[i]?.pass === true);
        rows.forEach((row, i) => {
          if ((gap.get(row.task) as number) > 0) return;
          // A2 by hand: centred on the rollout's own condition, over the task's std + ε.
          const task = rows.filter((r) => r.task === row.task).map((r) => r.level);
          const cell = rows.filter((r) => r.task === row.task && r.z === row.z).map((r) => r.level);
          const mean = (xs: number[]) => xs.reduce((acc, x) => acc + x, 0) / xs.length;
          const m2 = task.reduce((acc, x) => acc + (x - mean(task)) ** 2, 0);
          const n = task.length;
          const sd = n < 2 ? 0 : Math.sqrt(m2 / (settings.std === 'unbiased' ? n - 1 : n));
          const denom = sd + settings.epsilon || 1;
          const a2 = (row.level - mean(cell)) / denom;
          const expected = (1 - settings.w) * (global[i] as number) + settings.w * a2;
          expect(Math.abs((advantages[i] as number) - expected), `rollout ${i}`).toBeLessThan(1e-9);
        });
      }),
    );
  });

  it('gives exactly the λ = 0 values in every task with Δ̂ <= 0', () => {
    fc.assert(
      fc.property(rowsArb(), settingsArb, (rows, settings) => {
        const b = graded(rows, settings);
        const corrected = createSkillc(optionsOf(settings)).estimate(b).advantages;
        const plain = createSkillc(optionsOf(settings)).estimate({
          ...b,
          attributionStrengths: rows.map(() => 0),
        }).advantages;
        const gap = gaps(rows, (i) => rows[i]?.pass === true);
        rows.forEach((row, i) => {
          if (!((gap.get(row.task) as number) > 0)) expect(corrected[i]).toBe(plain[i]);
        });
      }),
    );
  });
});

describe('skillc property 4: scale-free', () => {
  const scaleArb = fc.oneof(fc.constant(10), fc.double({ min: 0.1, max: 100, noNaN: true }));

  it('gives the same advantages when every reward is multiplied by c > 0 (ε = 0: to rounding)', () => {
    fc.assert(
      fc.property(rowsArb(), settingsArb, scaleArb, fc.boolean(), (rows, settings, c, bySign) => {
        const options = { ...optionsOf(settings), epsilon: 0 };
        const at = (scale: number) => {
          const b = graded(rows, settings, scale);
          // Outcomes by score > 0 (invariant under c > 0) or given as successes.
          if (bySign) delete b.successes;
          return createSkillc(options).estimate(b).advantages;
        };
        const one = at(1);
        const scaled = at(c);
        one.forEach((a, i) => {
          expect(Math.abs((scaled[i] as number) - a), `rollout ${i}`).toBeLessThanOrEqual(
            1e-9 * Math.max(1, Math.abs(a)),
          );
        });
      }),
    );
  });

  // Integer rewards times c >= 0.1 over at most 32 rollouts have σ >= 0.017, so ε/σ <= 6e-5 per stream.
  it('with an absolute ε, moves by about ε/σ relatively (here at most 1e-3)', () => {
    fc.assert(
      fc.property(rowsArb(), settingsArb, scaleArb, (rows, settings, c) => {
        const options = { ...optionsOf(settings), epsilon: 1e-6 };
        const one = createSkillc(options).estimate(graded(rows, settings)).advantages;
        const scaled = createSkillc(options).estimate(graded(rows, settings, c)).advantages;
        one.forEach((a, i) => {
          expect(Math.abs((scaled[i] as number) - a)).toBeLessThanOrEqual(1e-3 * Math.max(1, Math.abs(a)));
        });
      }),
    );
  });
});

describe('skillc property 5: GRPO when λ = 0 and w = 0', () => {
  const conventionArb = fc.oneof(
    fc.record({ preset: fc.constantFrom('verl', 'trl', 'art') as fc.Arbitrary<'verl' | 'trl' | 'art'> }),
    fc.record({
      std: stdArb,
      epsilon: fc.constantFrom(0, 1e-6, 1e-4),
      singleton: fc.constantFrom('raw', 'zero') as fc.Arbitrary<'raw' | 'zero'>,
    }),
  );

  it('equals grpo exactly under the same convention, for λ = 0, retired types and zero attribution strengths', () => {
    fc.assert(
      fc.property(
        rowsArb(),
        conventionArb,
        fc.constantFrom('multiplicative', 'additive') as fc.Arbitrary<'multiplicative' | 'additive'>,
        fc.constantFrom('option', 'family', 'batch'),
        (rows, convention, correction, how) => {
          const b = graded(rows, { perSampleLambdas: false } as Settings);
          const grpo = createGrpo(convention).estimate(b);
          const base = { ...convention, correction, w: 0 };
          const skillc =
            how === 'option'
              ? createSkillc({ ...base, lambda: 0 }).estimate(b)
              : how === 'family'
                ? createSkillc({ ...base, lambdaByFamily: { heat: 0 } }).estimate({
                    ...b,
                    families: rows.map(() => 'heat'),
                  })
                : createSkillc({ ...base, lambda: 2 }).estimate({
                    ...b,
                    attributionStrengths: rows.map(() => 0),
                  });
          expect(skillc.advantages).toEqual(grpo.advantages);
          expect(skillc.metrics.corrected).toBe(0);
        },
      ),
    );
  });

  it('sums to zero within a task when there is no correction', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 1 })), {
          minLength: 1,
          maxLength: 16,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('multiplicative', 'additive') as fc.Arbitrary<'multiplicative' | 'additive'>,
        (rows, w, correction) => {
          const { advantages } = createSkillc({ w, lambda: 0, correction }).estimate({
            scores: rows.map((r) => r[0]),
            groupIds: rows.map(() => 'task'),
            conditions: rows.map((r) => r[1]),
          });
          expect(Math.abs(advantages.reduce((acc, a) => acc + a, 0))).toBeLessThan(1e-9);
        },
      ),
    );
  });
});

describe("skillc stream 1 over the batch (scope: 'batch', the paper's wording)", () => {
  it('normalises A1 by the mean and std of every rollout in the batch (by hand)', () => {
    // The 12 rollouts of T and U: five 1s, seven 0s. μ = 5/12, unbiased σ² = 12·(5/12)(7/12)/11 = 35/132,
    // σ = 0.5149286505, with ε 0.5149296505. A1: success (7/12)/σ = 1.1328408312, failure (−5/12)/σ =
    // −0.8091720223. A2 stays on each task's own scale: T's s = sqrt(2/7) + ε, U's u = 0.5 + ε.
    const { advantages } = createSkillc({ scope: 'batch' }).estimate(batch);
    const sb = Math.sqrt(35 / 132) + 1e-6;
    const pass = 7 / 12 / sb;
    const fail = -5 / 12 / sb;
    expect(pass).toBeCloseTo(1.1328408312, 9);
    expect(fail).toBeCloseTo(-0.8091720223, 9);
    // T: C = 0.5 as in the group-scope example; z=1 successes ÷ 1.5, z=0 successes × 1.5.
    const z1Pass = (0.6 * pass + (0.4 * 0.25) / s) / 1.5; // 0.5778580120
    const z1Fail = 0.6 * fail + (0.4 * -0.75) / s; // −1.0467507714
    const z0Pass = (0.6 * pass + (0.4 * 0.75) / s) * 1.5; // 1.8614280851
    const z0Fail = 0.6 * fail + (0.4 * -0.25) / s; // −0.6725857327
    // U: Δ̂ < 0, no correction; A2 0 for its constant z=1 pair, ±0.5/u for its z=0 pair [1, 0].
    const u = 0.5 + 1e-6;
    const uFail = 0.6 * fail; // −0.4855032134
    expectAdvantages(advantages, [
      z1Pass,
      z1Pass,
      z1Pass,
      z1Fail,
      z0Pass,
      z0Fail,
      z0Fail,
      z0Fail,
      uFail,
      uFail,
      0.6 * pass + (0.4 * 0.5) / u, // 1.0797036987
      uFail - (0.4 * 0.5) / u, // −0.8855024134
    ]);
    expect(advantages[0]).toBeCloseTo(0.5778580120403816, 12);
    expect(advantages[4]).toBeCloseTo(1.861428085108914, 12);
    expect(advantages[11]).toBeCloseTo(-0.8855024133739005, 12);
  });

  it('gives a task whose rollouts all scored the same a non-zero A1 (group scope gives it 0)', () => {
    // V: four successes with the skill, four without; beside it W, all failures. Per group both are constant;
    // over the batch V sits above the mean (0.5) and W below: ±0.5 / (sqrt(16·0.25/15) + ε).
    const b = {
      scores: [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      groupIds: [...Array(8).fill('V'), ...Array(8).fill('W')],
      conditions: Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 1 : 0)),
    };
    const group = createSkillc().estimate(b).advantages;
    expect([...group].every((a) => a === 0)).toBe(true);
    const sb = Math.sqrt(4 / 15) + 1e-6;
    expectAdvantages(createSkillc({ scope: 'batch' }).estimate(b).advantages, [
      ...Array(8).fill((0.6 * 0.5) / sb),
      ...Array(8).fill((0.6 * -0.5) / sb),
    ]);
  });

  it("couples the tasks: changing one task's rewards moves another's advantages only with scope 'batch'", () => {
    fc.assert(
      fc.property(rowsArb(), fc.integer({ min: 1, max: 4 }), (rows, bump) => {
        const target = rows[0]?.task as number;
        const settings = { perSampleLambdas: false } as Settings;
        const before = graded(rows, settings);
        const after = {
          ...before,
          scores: rows.map((r) => (r.task === target ? r.level + bump : r.level)),
        };
        const others = rows.flatMap((r, i) => (r.task === target ? [] : [i]));
        const group = createSkillc();
        const a = group.estimate(before).advantages;
        const b = group.estimate(after).advantages;
        for (const i of others) expect(b[i]).toBe(a[i]);
        // Over the batch the target's raised rewards raise the batch mean, so the other tasks' A1 moves.
        const batchScope = createSkillc({ scope: 'batch', w: 0, lambda: 0 });
        const c = batchScope.estimate(before).advantages;
        const d = batchScope.estimate(after).advantages;
        if (others.length > 0) expect(others.some((i) => c[i] !== d[i])).toBe(true);
      }),
    );
  });

  it('property 5 over the batch: λ = 0 and w = 0 is grpo with the whole batch as one group', () => {
    fc.assert(
      fc.property(
        rowsArb(),
        fc.record({
          std: stdArb,
          epsilon: fc.constantFrom(0, 1e-6, 1e-4),
          singleton: fc.constantFrom('raw', 'zero') as fc.Arbitrary<'raw' | 'zero'>,
        }),
        fc.constantFrom('option', 'batch'),
        (rows, convention, how) => {
          const b = graded(rows, { perSampleLambdas: false } as Settings);
          const grpo = createGrpo(convention).estimate({ ...b, groupIds: rows.map(() => 'all') });
          const base = { ...convention, scope: 'batch' as const, w: 0 };
          const skillc =
            how === 'option'
              ? createSkillc({ ...base, lambda: 0 }).estimate(b)
              : createSkillc(base).estimate({ ...b, attributionStrengths: rows.map(() => 0) });
          expect(skillc.advantages).toEqual(grpo.advantages);
        },
      ),
    );
  });
});
