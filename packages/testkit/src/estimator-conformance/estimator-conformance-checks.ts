import type { AdvantageBatch, AdvantageEstimator, AdvantageResult, Seed } from '@skillrl/core';
import { createRng, MissingFieldError, SkillrlError } from '@skillrl/core';
import {
  type BaseBatch,
  type BatchBuilder,
  groupsOf,
  randomBaseBatch,
  snapshotBatch,
  subsetBatch,
} from './conformance-batches.js';

export interface EstimatorConformanceOptions {
  /**
   * Batch fields the estimator cannot work without, beyond `scores` and `groupIds`. Each is removed in
   * turn from a full batch, and the estimator must throw `MissingFieldError` naming it.
   */
  requiredFields?: ReadonlyArray<keyof AdvantageBatch>;
  /** Adds the fields the estimator needs to each generated batch (see `BatchBuilder`). */
  buildBatch?: BatchBuilder;
  /**
   * Whether a sample's advantage depends only on its own group (default true). Estimators that whiten or
   * rescale over the whole batch (REINFORCE++, GPG, batch-scaled GRPO) declare `false` and skip the
   * isolation check.
   */
  groupLocal?: boolean;
  /** Metrics every result must carry as finite numbers; default the skillrl bookkeeping trio. */
  metrics?: readonly string[];
  /** Seed of the generated batches (default `'estimator-conformance'`). */
  seed?: Seed;
  /** How many random batches each check runs on (default 24). */
  cases?: number;
}

/** One named check; `run` throws an `Error` saying what went wrong. */
export interface ConformanceCheck {
  name: string;
  run(): void;
}

export const DEFAULT_CONFORMANCE_METRICS = ['frac_zero_std', 'groups_all_pass', 'groups_all_fail'] as const;

const NON_FINITE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

function fail(message: string): never {
  throw new Error(message);
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Steps of sample i as the batch gives them (`stepRewards`, else `stepKeys`), when it gives them. */
function stepCountOf(batch: AdvantageBatch, i: number): number | undefined {
  for (const field of [batch.stepRewards, batch.stepKeys]) {
    const row = field?.[i] as unknown;
    if (row !== null && typeof row === 'object' && typeof (row as ArrayLike<unknown>).length === 'number') {
      return (row as ArrayLike<unknown>).length;
    }
  }
  return undefined;
}

/**
 * Why sample `i` of `a` and sample `j` of `b` differ in their step advantages (an estimator with step-level
 * credit, `stepAdvantages`), or `undefined` when they agree under `same`. Results without step advantages
 * agree trivially.
 */
function stepDifference(
  a: AdvantageResult,
  i: number,
  b: AdvantageResult,
  j: number,
  same: (x: number, y: number) => boolean,
): string | undefined {
  if (a.stepAdvantages === undefined && b.stepAdvantages === undefined) return undefined;
  const x = a.stepAdvantages?.[i];
  const y = b.stepAdvantages?.[j];
  if (x === undefined || y === undefined) {
    return x === y
      ? undefined
      : `step advantages ${x === undefined ? 'absent' : 'present'} in one, not the other`;
  }
  if (x.length !== y.length) return `${x.length} step advantages against ${y.length}`;
  for (let t = 0; t < x.length; t++) {
    if (!same(x[t] as number, y[t] as number)) return `step ${t}: ${x[t]} against ${y[t]}`;
  }
  return undefined;
}

/**
 * The checks an advantage estimator must pass, as plain functions (no test framework needed):
 * shape, finiteness, metrics, determinism and purity, unknown fields ignored, group isolation, non-finite
 * scores, missing fields, mismatched lengths. `describeEstimatorConformance` runs them as vitest tests.
 * An estimator with step-level credit (`stepAdvantages`, GiGPO's) is held to the same rules step by step:
 * one entry per sample, one finite value per step the batch gives it (`stepRewards`, else `stepKeys`), no
 * entry for a skipped (non-finite) sample, and the same determinism, isolation and non-finite invariance.
 * Its builder supplies the step fields (`stepKeys`, `stepRewards`) as any other field it needs.
 */
export function estimatorConformanceChecks(
  create: () => AdvantageEstimator,
  options: EstimatorConformanceOptions = {},
): ConformanceCheck[] {
  const seed = options.seed ?? 'estimator-conformance';
  const cases = options.cases ?? 24;
  const metrics = options.metrics ?? DEFAULT_CONFORMANCE_METRICS;
  const requiredFields = options.requiredFields ?? [];
  const builder: BatchBuilder = options.buildBatch ?? ((base) => ({ ...base }));

  const build = (base: BaseBatch, k: number | string): AdvantageBatch =>
    builder(base, createRng(seed).fork('builder').fork(k));
  const baseCase = (k: number): BaseBatch => randomBaseBatch(createRng(seed).fork('batch').fork(k), k);

  const estimate = (estimator: AdvantageEstimator, batch: AdvantageBatch, what: string): AdvantageResult => {
    let result: AdvantageResult;
    try {
      result = estimator.estimate(batch);
    } catch (error) {
      fail(
        `${what}: estimate threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      );
    }
    if (!result || !(result.advantages instanceof Float64Array)) {
      fail(
        `${what}: expected { advantages: Float64Array }, got ${Object.prototype.toString.call(result?.advantages)}`,
      );
    }
    if (result.advantages.length !== batch.scores.length) {
      fail(`${what}: expected ${batch.scores.length} advantages, got ${result.advantages.length}`);
    }
    // Step-level credit is optional; when given, one entry per sample, each absent (a skipped sample) or
    // one finite value per step the batch gives that sample.
    const steps = result.stepAdvantages;
    if (steps !== undefined) {
      if (!Array.isArray(steps) || steps.length !== batch.scores.length) {
        fail(`${what}: expected stepAdvantages with ${batch.scores.length} entries (one per sample)`);
      }
      steps.forEach((row, i) => {
        if (row === undefined) return;
        if (!(row instanceof Float64Array)) fail(`${what}: stepAdvantages[${i}] is not a Float64Array`);
        const count = stepCountOf(batch, i);
        if (count !== undefined && row.length !== count) {
          fail(`${what}: stepAdvantages[${i}] has ${row.length} entries, the sample has ${count} steps`);
        }
        row.forEach((a, t) => {
          if (!Number.isFinite(a)) fail(`${what}: stepAdvantages[${i}][${t}] is ${a}`);
        });
      });
    }
    return result;
  };

  const checks: ConformanceCheck[] = [
    {
      name: 'returns one finite advantage per sample, as a Float64Array',
      run() {
        for (let k = 0; k < cases; k++) {
          const batch = build(baseCase(k), k);
          const { advantages } = estimate(create(), batch, `batch ${k}`);
          advantages.forEach((a, i) => {
            if (!Number.isFinite(a)) fail(`batch ${k}: advantage ${i} is ${a}`);
          });
        }
      },
    },
    {
      name: 'returns an empty result for an empty batch',
      run() {
        estimate(create(), build({ scores: [], groupIds: [] }, 'empty'), 'empty batch');
      },
    },
    {
      name: `reports the metrics ${metrics.length ? metrics.join(', ') : '(none required)'} as finite numbers`,
      run() {
        for (let k = 0; k < cases; k++) {
          const result = estimate(create(), build(baseCase(k), k), `batch ${k}`);
          if (result.metrics === null || typeof result.metrics !== 'object')
            fail(`batch ${k}: no metrics object`);
          for (const [key, value] of Object.entries(result.metrics)) {
            if (typeof value !== 'number' || !Number.isFinite(value))
              fail(`batch ${k}: metric ${key} is ${value}`);
          }
          for (const key of metrics) {
            if (!(key in result.metrics)) fail(`batch ${k}: metric ${key} is missing`);
          }
        }
      },
    },
    {
      name: 'is deterministic and leaves its input untouched',
      run() {
        for (let k = 0; k < cases; k++) {
          const batch = build(baseCase(k), k);
          const before = snapshotBatch(batch);
          const estimator = create();
          const firstResult = estimate(estimator, batch, `batch ${k}`);
          const againResult = estimate(estimator, batch, `batch ${k} (same estimator)`);
          const freshResult = estimate(create(), batch, `batch ${k} (new estimator)`);
          const [first, again, fresh] = [firstResult, againResult, freshResult].map((r) => r.advantages) as [
            Float64Array,
            Float64Array,
            Float64Array,
          ];
          for (let i = 0; i < first.length; i++) {
            if (!Object.is(first[i], again[i]) || !Object.is(first[i], fresh[i])) {
              fail(`batch ${k}: advantage ${i} differs between calls: ${first[i]}, ${again[i]}, ${fresh[i]}`);
            }
            const differs =
              stepDifference(firstResult, i, againResult, i, Object.is) ??
              stepDifference(firstResult, i, freshResult, i, Object.is);
            if (differs) fail(`batch ${k}: sample ${i}'s step advantages differ between calls: ${differs}`);
          }
          if (JSON.stringify(snapshotBatch(batch)) !== JSON.stringify(before))
            fail(`batch ${k}: the batch was modified`);
        }
      },
    },
    {
      name: 'gives the same advantages when handed a used `out` array to write into',
      run() {
        for (let k = 0; k < cases; k++) {
          const batch = build(baseCase(k), k);
          const expected = estimate(create(), batch, `batch ${k}`).advantages;
          // Left over from an earlier step: an estimator that skips entries must still clear them.
          const out = new Float64Array(batch.scores.length).fill(12345.5);
          let result: AdvantageResult;
          try {
            result = create().estimate(batch, { out });
          } catch (error) {
            fail(
              `batch ${k}: estimate(batch, { out }) threw ${error instanceof Error ? error.message : error}`,
            );
          }
          // Implementations may ignore `out`; callers read `advantages` either way.
          const got = result.advantages;
          for (let i = 0; i < expected.length; i++) {
            if (!Object.is(got[i], expected[i])) {
              fail(`batch ${k}: with out, advantage ${i} is ${got[i]}, without ${expected[i]}`);
            }
          }
        }
      },
    },
  ];

  checks.push({
    name: 'ignores batch fields it does not read (the batch contract only grows)',
    run() {
      for (let k = 0; k < cases; k++) {
        const batch = build(baseCase(k), k);
        const rng = createRng(seed).fork('extra-fields').fork(k);
        // New per-sample and per-batch fields, as a newer @skillrl/core may send (as attributionStrengths,
        // interGenerationWeights, previousMeans and carriedMeans were added): an estimator written before
        // them must keep working, unchanged.
        const extended = {
          ...batch,
          conformanceExtraPerSample: Array.from(batch.scores, () => rng.float()),
          conformanceExtraRecord: { note: 'unknown to every estimator', value: 1 },
        } as AdvantageBatch;
        const plain = estimate(create(), batch, `batch ${k}`);
        const extra = estimate(create(), extended, `batch ${k} with two unknown fields`);
        const expected = plain.advantages;
        const got = extra.advantages;
        for (let i = 0; i < expected.length; i++) {
          if (!Object.is(got[i], expected[i])) {
            fail(`batch ${k}: with unknown fields, advantage ${i} is ${got[i]}, without ${expected[i]}`);
          }
          const differs = stepDifference(extra, i, plain, i, Object.is);
          if (differs)
            fail(`batch ${k}: with unknown fields, sample ${i}'s step advantages differ: ${differs}`);
        }
      }
    },
  });

  if (options.groupLocal !== false) {
    checks.push({
      name: "changing one group's scores leaves every other group's advantages unchanged",
      run() {
        let compared = 0;
        for (let k = 0; k < cases; k++) {
          const base = baseCase(k);
          const ids = groupsOf(base);
          if (ids.length < 2) continue;
          const rng = createRng(seed).fork('isolation').fork(k);
          const target = rng.pick(ids);
          const changed: BaseBatch = {
            groupIds: base.groupIds,
            scores: base.scores.map((s, i) => (base.groupIds[i] === target ? rng.int(-3, 5) * 0.5 : s)),
          };
          const before = estimate(create(), build(base, k), `batch ${k}`);
          const after = estimate(create(), build(changed, k), `batch ${k} with group ${target} changed`);
          const a = before.advantages;
          const b = after.advantages;
          for (let i = 0; i < a.length; i++) {
            if (base.groupIds[i] === target) continue;
            compared++;
            if (!close(a[i] as number, b[i] as number)) {
              fail(
                `batch ${k}: changing group ${String(target)} moved sample ${i} of group ${String(base.groupIds[i])} ` +
                  `from ${a[i]} to ${b[i]} (declare groupLocal: false if the estimator couples groups)`,
              );
            }
            const differs = stepDifference(before, i, after, i, close);
            if (differs) {
              fail(
                `batch ${k}: changing group ${String(target)} moved the step advantages of sample ${i} of group ` +
                  `${String(base.groupIds[i])}: ${differs} (declare groupLocal: false if the estimator couples groups)`,
              );
            }
          }
        }
        if (compared === 0) fail('no batch had two groups to compare');
      },
    });
  }

  checks.push({
    name: 'gives non-finite scores advantage 0 and leaves them out of every baseline',
    run() {
      for (let k = 0; k < cases; k++) {
        const base = baseCase(k);
        const rng = createRng(seed).fork('nonfinite').fork(k);
        const bad = base.scores.map((_, i) => i % 5 === k % 5 || rng.bernoulli(0.1));
        const batch = build(base, k);
        const poisoned = { ...batch, scores: base.scores.map((s, i) => (bad[i] ? rng.pick(NON_FINITE) : s)) };
        const keep = base.scores.map((_, i) => i).filter((i) => !bad[i]);
        const fullResult = estimate(create(), poisoned, `batch ${k} with non-finite scores`);
        const cleanResult = estimate(create(), subsetBatch(poisoned, keep), `batch ${k} without them`);
        const full = fullResult.advantages;
        const clean = cleanResult.advantages;
        full.forEach((a, i) => {
          if (bad[i] && a !== 0)
            fail(`batch ${k}: sample ${i} has score ${poisoned.scores[i]} but advantage ${a}`);
          // A skipped sample has no step-level entry (AdvantageResult.stepAdvantages).
          if (bad[i] && fullResult.stepAdvantages?.[i] !== undefined)
            fail(`batch ${k}: sample ${i} has score ${poisoned.scores[i]} but step advantages`);
          if (!Number.isFinite(a)) fail(`batch ${k}: advantage ${i} is ${a}`);
        });
        keep.forEach((i, j) => {
          if (!close(full[i] as number, clean[j] as number)) {
            fail(
              `batch ${k}: sample ${i} gets ${full[i]} beside non-finite scores but ${clean[j]} without them ` +
                '(non-finite scores must not enter any baseline)',
            );
          }
          const differs = stepDifference(fullResult, i, cleanResult, j, close);
          if (differs) {
            fail(
              `batch ${k}: sample ${i}'s step advantages differ beside non-finite scores and without them: ` +
                `${differs} (non-finite scores must not enter any baseline)`,
            );
          }
        });
      }
    },
  });

  for (const field of requiredFields) {
    checks.push({
      name: `throws MissingFieldError naming "${String(field)}" when it is missing`,
      run() {
        const full = build(baseCase(0), 0) as unknown as Record<string, unknown>;
        const { [field]: _removed, ...rest } = full;
        let thrown: unknown;
        try {
          create().estimate(rest as unknown as AdvantageBatch);
        } catch (error) {
          thrown = error;
        }
        if (thrown === undefined) fail(`no error without "${String(field)}"`);
        if (!MissingFieldError.isInstance(thrown)) {
          fail(`expected MissingFieldError without "${String(field)}", got ${String(thrown)}`);
        }
        if (thrown.field !== field)
          fail(`MissingFieldError names "${thrown.field}", expected "${String(field)}"`);
      },
    });
  }

  checks.push({
    name: 'rejects per-sample fields of different lengths with a SkillrlError',
    run() {
      const base: BaseBatch = { scores: [1, 0, 1, 0], groupIds: [1, 1, 2, 2] };
      const batch = build(base, 'lengths');
      let thrown: unknown;
      try {
        create().estimate({ ...batch, groupIds: [1, 1, 2] });
      } catch (error) {
        thrown = error;
      }
      if (!SkillrlError.isInstance(thrown)) {
        fail(
          `expected a SkillrlError for 4 scores and 3 group ids, got ${thrown === undefined ? 'no error' : String(thrown)}`,
        );
      }
    },
  });

  return checks;
}
