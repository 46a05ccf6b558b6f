import type { AdvantageBatch } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createSkillR1, type SkillR1Options } from './skill-r1.js';

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

  it('reads λ per sample from batch.interGenerationWeights, over the option', () => {
    // Same cells as above with previousMeans x: 0.1. Batch λ 0.5 everywhere gives the λ = 0.5 values even
    // though the option says 2; λ 0 on y's samples leaves y with A_intra alone (y gen 3: 0).
    const est = createSkillR1({ lambda: 2, previousMeans: { x: 0.1 } });
    expectAdvantages(
      est.estimate({ ...batch, interGenerationWeights: batch.scores.map(() => 0.5) }).advantages,
      [0, 0.375, 0.2, 0, -0.25, 0.4, 0.375, 0.25],
    );
    const yWithout = batch.groupIds.map((g) => (g === 'y' ? 0 : 1));
    expectAdvantages(
      est.estimate({ ...batch, interGenerationWeights: yWithout }).advantages,
      [0.1, 0, 0.3, 0.2, -0.25, 0.6, 0, 0.25],
    );
    expect(() => est.estimate({ ...batch, interGenerationWeights: [1, 1, 1, -1, 1, 1, 1, 1] })).toThrow(
      /batch\.interGenerationWeights\[3\].*the weight of A_inter/,
    );
  });

  it('ignores a `lambdas` field (removed before the first release: interGenerationWeights is the field)', () => {
    const est = createSkillR1({ lambda: 2, previousMeans: { x: 0.1 } });
    const half = batch.scores.map(() => 0.5);
    const legacy = est.estimate({ ...batch, lambdas: half } as AdvantageBatch).advantages;
    expect(legacy).toEqual(est.estimate(batch).advantages);
    expect(legacy).not.toEqual(est.estimate({ ...batch, interGenerationWeights: half }).advantages);
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

  it("interBaseline 'carried-skill': compares with the carried skill's mean, not the generation's (by hand)", () => {
    // carriedMeans x: 0.15 (the mean of the skill carried into x's generation 1); y has none.
    // x gen 1: intra ∓0.1, inter 0.3 − 0.15 = 0.15 → [0.05, 0.25].
    // x gen 2: intra ∓0.2, inter 0.7 − best of gen 1 (0.4, the carried candidate) = 0.3 → [0.1, 0.5].
    // y gen 1: no carried mean → [−0.25, 0.25]. y gen 3: intra 0, inter 1 − best of gen 1 (0.5) = 0.5.
    // (With the generation mean: x gen 2 would get inter 0.4 and y gen 3 0.75.)
    const est = createSkillR1({ interBaseline: 'carried-skill' });
    const { advantages, metrics } = est.estimate({ ...batch, carriedMeans: { x: 0.15 } });
    expectAdvantages(advantages, [0.05, 0.5, 0.25, 0.1, -0.25, 0.5, 0.5, 0.25]);
    expect(metrics.inter_mean).toBeCloseTo((0.15 + 0.3 + 0.5) / 3, 14);
    // previousMeans is the other baseline's input: not read.
    expect(
      est.estimate({ ...batch, carriedMeans: { x: 0.15 }, previousMeans: { x: 0.9, y: 0 } }).advantages,
    ).toEqual(advantages);
  });

  it("interBaseline 'carried-skill' needs batch.carriedMeans and takes no options.previousMeans", () => {
    const est = createSkillR1({ interBaseline: 'carried-skill' });
    expect(() => est.estimate(batch)).toThrow(MissingFieldError);
    expect(() => est.estimate(batch)).toThrow(/"carriedMeans"/);
    // {} says there is no earlier generation: every instance's earliest generation gets A_inter = 0.
    expect(est.estimate({ ...batch, carriedMeans: {} }).advantages[0]).toBeCloseTo(-0.1, 14);
    expect(() => est.estimate({ ...batch, carriedMeans: { x: Number.NaN } })).toThrow(
      /batch\.carriedMeans\.x/,
    );
    expect(() => createSkillR1({ interBaseline: 'carried-skill', previousMeans: { x: 0.1 } })).toThrow(
      /options\.previousMeans/,
    );
    expect(() => createSkillR1({ interBaseline: 'best' } as unknown as SkillR1Options)).toThrow(
      /options\.interBaseline/,
    );
  });

  it('normalizeInter divides A_inter by the same std + ε as A_intra; 0 where the candidates tie (by hand)', () => {
    // previousMeans x: 0.1. x gen 1 [0.2, 0.4]: d = sqrt(0.02) + ε = 0.1414223562; A = (∓0.1 + 0.2)/d.
    // x gen 2 [0.5, 0.9]: d = sqrt(0.08) + ε = 0.2828437125; A = (∓0.2 + 0.4)/d.
    // y gen 1 [0, 0.5]: d = sqrt(0.125) + ε; no previous mean: A = ∓0.25/d = ∓0.7071047812.
    // y gen 3 [1, 1]: std 0, so A_intra = 0 and A_inter = 0 (normalizeIntra alone keeps the raw 0.75).
    const options: SkillR1Options = { normalizeIntra: true, normalizeInter: true, previousMeans: { x: 0.1 } };
    const { advantages } = createSkillR1(options).estimate(batch);
    expectAdvantages(
      advantages,
      [
        0.7071017812219027, 0, 2.121305343665708, 0.7071042811953865, -0.7071047811922043, 2.1213128435861592,
        0, 0.7071047811922043,
      ],
    );
    const intraOnly = createSkillR1({ ...options, normalizeInter: false }).estimate(batch).advantages;
    expect(intraOnly[1]).toBeCloseTo(0.75, 14);
    expect(intraOnly[0]).toBeCloseTo(-0.1 / (Math.sqrt(0.02) + 1e-6) + 0.2, 12);
  });

  it('normalizeInter with the carried-skill baseline (by hand), and only with normalizeIntra', () => {
    // As the carried-skill example, each cell's A divided by its d: x gen 1 (∓0.1 + 0.15)/d1, x gen 2
    // (∓0.2 + 0.3)/d2; y as in the normalizeInter example (its gen 3 ties: 0).
    const { advantages } = createSkillR1({
      normalizeIntra: true,
      normalizeInter: true,
      interBaseline: 'carried-skill',
    }).estimate({ ...batch, carriedMeans: { x: 0.15 } });
    expectAdvantages(
      advantages,
      [
        0.35355089061095124, 0, 1.7677544530547566, 0.35355214059769313, -0.7071047811922043,
        1.767760702988466, 0, 0.7071047811922043,
      ],
    );
    expect(() => createSkillR1({ normalizeInter: true })).toThrow(InvalidArgumentError);
    expect(() => createSkillR1({ normalizeInter: true })).toThrow(/options\.normalizeInter.*normalizeIntra/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The options over random batches, against a reference written from the formulas.

interface Candidate {
  instance: string;
  generation: number;
  score: number;
}

const candidatesArb = fc.array(
  fc.record({
    instance: fc.constantFrom('a', 'b', 'c'),
    generation: fc.integer({ min: 1, max: 4 }),
    // Few levels, so ties (std 0) and shared maxima are common; the rest on a 1e-6 grid (a subnormal
    // difference such as 3e-163 underflows the std to 0 at one scale and not at another).
    score: fc.oneof(
      fc.constantFrom(0, 0.5, 1),
      fc.integer({ min: 0, max: 1_000_000 }).map((k) => k / 1_000_000),
    ),
  }),
  { minLength: 1, maxLength: 40 },
);
const earlierArb = fc.record({
  a: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  b: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
});
const skillR1SettingsArb = fc.record({
  lambda: fc.double({ min: 0, max: 3, noNaN: true }),
  interBaseline: fc.constantFrom('generation-mean', 'carried-skill') as fc.Arbitrary<
    'generation-mean' | 'carried-skill'
  >,
  normalizeIntra: fc.boolean(),
  normalizeInter: fc.boolean(),
  std: fc.constantFrom('unbiased', 'population') as fc.Arbitrary<'unbiased' | 'population'>,
  epsilon: fc.constantFrom(0, 1e-6, 1e-4),
});
type SkillR1Settings = typeof skillR1SettingsArb extends fc.Arbitrary<infer T> ? T : never;

const definedEntries = (record: Record<string, number | undefined>): Record<string, number> =>
  Object.fromEntries(Object.entries(record).filter((e): e is [string, number] => e[1] !== undefined));

/** The batch for `rows`, the earlier baseline going in as previousMeans or carriedMeans as the setting reads it. */
function candidateBatch(
  rows: Candidate[],
  settings: Pick<SkillR1Settings, 'interBaseline'>,
  earlier: Record<string, number>,
  c = 1,
) {
  const scaled = Object.fromEntries(Object.entries(earlier).map(([k, v]) => [k, v * c]));
  return {
    scores: rows.map((r) => r.score * c),
    groupIds: rows.map((r) => r.instance),
    generations: rows.map((r) => r.generation),
    ...(settings.interBaseline === 'carried-skill' ? { carriedMeans: scaled } : { previousMeans: scaled }),
  };
}

function optionsFor(settings: SkillR1Settings): SkillR1Options {
  return { ...settings, normalizeInter: settings.normalizeIntra && settings.normalizeInter };
}

/** A by the docblock's formulas, one sample at a time. */
function reference(rows: Candidate[], settings: SkillR1Settings, earlier: Record<string, number>): number[] {
  const options = optionsFor(settings);
  const cell = (instance: string, generation: number) =>
    rows.filter((r) => r.instance === instance && r.generation === generation).map((r) => r.score);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return rows.map((row) => {
    const own = cell(row.instance, row.generation);
    const m = mean(own);
    const ss = own.reduce((a, x) => a + (x - m) ** 2, 0);
    const n = own.length;
    const sd = n < 2 ? 0 : Math.sqrt(ss / (settings.std === 'unbiased' ? n - 1 : n));
    const before = rows
      .filter((r) => r.instance === row.instance && r.generation < row.generation)
      .map((r) => r.generation);
    let baseline: number | undefined;
    if (before.length > 0) {
      const previous = cell(row.instance, Math.max(...before));
      baseline = settings.interBaseline === 'carried-skill' ? Math.max(...previous) : mean(previous);
    } else baseline = earlier[row.instance];
    let inter = baseline === undefined ? 0 : m - baseline;
    let intra = row.score - m;
    const denom = sd + settings.epsilon;
    if (options.normalizeIntra && denom !== 0) intra /= denom;
    if (options.normalizeInter) inter = sd === 0 ? 0 : inter / denom;
    return intra + settings.lambda * inter;
  });
}

describe('skill-r1 properties', () => {
  it('matches the formulas for every combination of interBaseline, normalizeIntra and normalizeInter', () => {
    fc.assert(
      fc.property(candidatesArb, skillR1SettingsArb, earlierArb, (rows, settings, earlierRaw) => {
        const earlier = definedEntries(earlierRaw);
        const { advantages } = createSkillR1(optionsFor(settings)).estimate(
          candidateBatch(rows, settings, earlier),
        );
        reference(rows, settings, earlier).forEach((expected, i) => {
          expect(Math.abs((advantages[i] as number) - expected), `candidate ${i}`).toBeLessThanOrEqual(
            1e-9 * Math.max(1, Math.abs(expected)),
          );
        });
      }),
    );
  });

  it('keeps the defaults: interBaseline generation-mean and normalizeInter false give the old values', () => {
    fc.assert(
      fc.property(candidatesArb, skillR1SettingsArb, earlierArb, (rows, settings, earlierRaw) => {
        const earlier = definedEntries(earlierRaw);
        const plain = { ...settings, interBaseline: 'generation-mean' as const };
        const b = candidateBatch(rows, plain, earlier);
        const { interBaseline: _, normalizeInter: __, ...omitted } = plain;
        expect(
          createSkillR1({ ...omitted, interBaseline: 'generation-mean', normalizeInter: false }).estimate(b)
            .advantages,
        ).toEqual(createSkillR1(omitted).estimate(b).advantages);
      }),
    );
  });

  it('carried-skill never credits more than generation-mean given the same earlier mean (best >= mean)', () => {
    fc.assert(
      fc.property(candidatesArb, skillR1SettingsArb, earlierArb, (rows, settings, earlierRaw) => {
        const earlier = definedEntries(earlierRaw);
        const at = (interBaseline: 'generation-mean' | 'carried-skill') => {
          const s = { ...settings, interBaseline };
          return createSkillR1(optionsFor(s)).estimate(candidateBatch(rows, s, earlier)).advantages;
        };
        const carried = at('carried-skill');
        const meanBased = at('generation-mean');
        carried.forEach((a, i) => {
          expect(a, `candidate ${i}`).toBeLessThanOrEqual((meanBased[i] as number) + 1e-9);
        });
      }),
    );
  });

  it('with normalizeIntra and normalizeInter: A is the unnormalised A over std + ε, and 0 in a tied cell', () => {
    fc.assert(
      fc.property(candidatesArb, skillR1SettingsArb, earlierArb, (rows, settings, earlierRaw) => {
        const earlier = definedEntries(earlierRaw);
        const normalised = { ...settings, normalizeIntra: true, normalizeInter: true };
        const raw = { ...settings, normalizeIntra: false, normalizeInter: false };
        const b = candidateBatch(rows, settings, earlier);
        const a = createSkillR1(normalised).estimate(b).advantages;
        const r = createSkillR1(raw).estimate(b).advantages;
        rows.forEach((row, i) => {
          const own = rows.filter((x) => x.instance === row.instance && x.generation === row.generation);
          const m = own.reduce((acc, x) => acc + x.score, 0) / own.length;
          const ss = own.reduce((acc, x) => acc + (x.score - m) ** 2, 0);
          const n = own.length;
          const sd = n < 2 ? 0 : Math.sqrt(ss / (settings.std === 'unbiased' ? n - 1 : n));
          if (sd === 0) expect(a[i], `tied candidate ${i}`).toBe(0);
          else {
            const expected = (r[i] as number) / (sd + settings.epsilon);
            expect(Math.abs((a[i] as number) - expected)).toBeLessThanOrEqual(
              1e-9 * Math.max(1, Math.abs(expected)),
            );
          }
        });
      }),
    );
  });

  it('with normalizeIntra and normalizeInter (ε = 0) is scale-free: rewards and baselines times c change nothing', () => {
    fc.assert(
      fc.property(
        candidatesArb,
        skillR1SettingsArb,
        earlierArb,
        fc.oneof(fc.constant(10), fc.double({ min: 0.1, max: 100, noNaN: true })),
        (rows, settings, earlierRaw, c) => {
          const earlier = definedEntries(earlierRaw);
          const s = { ...settings, normalizeIntra: true, normalizeInter: true, epsilon: 0 };
          const one = createSkillR1(s).estimate(candidateBatch(rows, s, earlier)).advantages;
          const scaled = createSkillR1(s).estimate(candidateBatch(rows, s, earlier, c)).advantages;
          one.forEach((a, i) => {
            expect(Math.abs((scaled[i] as number) - a), `candidate ${i}`).toBeLessThanOrEqual(
              1e-9 * Math.max(1, Math.abs(a)),
            );
          });
          // Without normalizeInter A_inter stays in reward units: scaling moves it wherever A_inter ≠ 0.
        },
      ),
    );
  });
});
