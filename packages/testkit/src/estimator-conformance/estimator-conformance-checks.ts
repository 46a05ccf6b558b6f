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

/**
 * The checks an advantage estimator must pass, as plain functions (no test framework needed):
 * shape, finiteness, metrics, determinism and purity, unknown fields ignored, group isolation, non-finite
 * scores, missing fields, mismatched lengths. `describeEstimatorConformance` runs them as vitest tests.
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
          const first = estimate(estimator, batch, `batch ${k}`).advantages;
          const again = estimate(estimator, batch, `batch ${k} (same estimator)`).advantages;
          const fresh = estimate(create(), batch, `batch ${k} (new estimator)`).advantages;
          for (let i = 0; i < first.length; i++) {
            if (!Object.is(first[i], again[i]) || !Object.is(first[i], fresh[i])) {
              fail(`batch ${k}: advantage ${i} differs between calls: ${first[i]}, ${again[i]}, ${fresh[i]}`);
            }
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
        const expected = estimate(create(), batch, `batch ${k}`).advantages;
        const got = estimate(create(), extended, `batch ${k} with two unknown fields`).advantages;
        for (let i = 0; i < expected.length; i++) {
          if (!Object.is(got[i], expected[i])) {
            fail(`batch ${k}: with unknown fields, advantage ${i} is ${got[i]}, without ${expected[i]}`);
          }
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
          const a = estimate(create(), build(base, k), `batch ${k}`).advantages;
          const b = estimate(
            create(),
            build(changed, k),
            `batch ${k} with group ${target} changed`,
          ).advantages;
          for (let i = 0; i < a.length; i++) {
            if (base.groupIds[i] === target) continue;
            compared++;
            if (!close(a[i] as number, b[i] as number)) {
              fail(
                `batch ${k}: changing group ${String(target)} moved sample ${i} of group ${String(base.groupIds[i])} ` +
                  `from ${a[i]} to ${b[i]} (declare groupLocal: false if the estimator couples groups)`,
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
        const full = estimate(create(), poisoned, `batch ${k} with non-finite scores`).advantages;
        const clean = estimate(create(), subsetBatch(poisoned, keep), `batch ${k} without them`).advantages;
        full.forEach((a, i) => {
          if (bad[i] && a !== 0)
            fail(`batch ${k}: sample ${i} has score ${poisoned.scores[i]} but advantage ${a}`);
          if (!Number.isFinite(a)) fail(`batch ${k}: advantage ${i} is ${a}`);
        });
        keep.forEach((i, j) => {
          if (!close(full[i] as number, clean[j] as number)) {
            fail(
              `batch ${k}: sample ${i} gets ${full[i]} beside non-finite scores but ${clean[j]} without them ` +
                '(non-finite scores must not enter any baseline)',
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
