import type { AdvantageBatch, AdvantageEstimator, EstimateOptions } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { describeEstimatorConformance } from './describe-estimator-conformance.js';
import {
  type EstimatorConformanceOptions,
  estimatorConformanceChecks,
} from './estimator-conformance-checks.js';

/**
 * A tiny group-centred estimator, weighted by `lengths` to exercise the required-field path:
 * A_i = len_i · (r_i − mean of the group's finite scores).
 */
function createCentred(options: { breakWith?: string } = {}): AdvantageEstimator {
  const mode = options.breakWith;
  return {
    name: 'centred',
    estimate(batch: AdvantageBatch, estimateOptions?: EstimateOptions) {
      if (!batch.lengths && mode !== 'no-missing-field') throw new MissingFieldError('centred', 'lengths');
      if (mode === 'strict-fields') {
        const known = ['scores', 'groupIds', 'lengths'];
        const unknown = Object.keys(batch).find((key) => !known.includes(key));
        if (unknown) throw new InvalidArgumentError(`batch.${unknown}`, 'centred: unknown field');
      }
      const n = batch.scores.length;
      if (batch.groupIds.length !== n) {
        throw new InvalidArgumentError(
          'batch.groupIds',
          `expected ${n} entries, got ${batch.groupIds.length}`,
        );
      }
      const sums = new Map<string | number, { sum: number; count: number }>();
      let batchSum = 0;
      for (let i = 0; i < n; i++) {
        const x = batch.scores[i] as number;
        if (!Number.isFinite(x) && mode !== 'nan-in-baseline') continue;
        const g = batch.groupIds[i] as string | number;
        const entry = sums.get(g) ?? { sum: 0, count: 0 };
        entry.sum += x;
        entry.count++;
        sums.set(g, entry);
        batchSum += x;
      }
      // 'dirty-out' writes into a caller's array but only where the advantage is non-zero, never clearing it.
      const dirty = mode === 'dirty-out' && estimateOptions?.out;
      const advantages = dirty || new Float64Array(n);
      let allPass = 0;
      for (const entry of sums.values()) if (entry.sum === entry.count) allPass++;
      for (let i = 0; i < n; i++) {
        const x = batch.scores[i] as number;
        if (!Number.isFinite(x)) {
          advantages[i] = mode === 'nan-in-baseline' ? Number.NaN : 0;
          continue;
        }
        const { sum, count } = sums.get(batch.groupIds[i] as string | number)!;
        const len = batch.lengths ? (batch.lengths[i] as number) : 1;
        const a = len * (x - sum / count);
        if (!dirty || a !== 0) advantages[i] = a;
        if (mode === 'batch-coupled') advantages[i]! += batchSum / 1000;
        if (mode === 'counter') advantages[i]! += calls;
      }
      calls++;
      const metrics: Record<string, number> = {
        frac_zero_std: 0,
        groups_all_pass: allPass,
        groups_all_fail: 0,
      };
      if (mode === 'no-metrics') return { advantages, metrics: {} };
      if (mode === 'plain-array')
        return { advantages: Array.from(advantages) as unknown as Float64Array, metrics };
      return { advantages, metrics };
    },
  };
}
let calls = 0;

// Lengths 1..3 from the position: a builder must not look at the scores.
const withLengths: EstimatorConformanceOptions = {
  requiredFields: ['lengths'],
  buildBatch: (base, rng) => ({ ...base, lengths: base.scores.map(() => 1 + rng.int(3)) }),
};

describeEstimatorConformance(
  'centred (a tiny estimator written in this test)',
  () => createCentred(),
  withLengths,
);

describe('estimatorConformanceChecks catches broken estimators', () => {
  const failing = (breakWith: string, options: EstimatorConformanceOptions = withLengths) =>
    estimatorConformanceChecks(() => createCentred({ breakWith }), options)
      .filter((check) => {
        try {
          check.run();
          return false;
        } catch {
          return true;
        }
      })
      .map((check) => check.name);

  it('passes a correct estimator on every check', () => {
    expect(failing('none')).toEqual([]);
  });

  it('flags advantages returned as a plain array', () => {
    expect(failing('plain-array')).toContain('returns one finite advantage per sample, as a Float64Array');
  });

  it('flags missing bookkeeping metrics', () => {
    const names = failing('no-metrics');
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^reports the metrics frac_zero_std/);
  });

  it('flags an estimator whose output changes between calls', () => {
    expect(failing('counter')).toContain('is deterministic and leaves its input untouched');
  });

  it('flags coupling between groups, unless the estimator declares groupLocal: false', () => {
    const isolation = "changing one group's scores leaves every other group's advantages unchanged";
    expect(failing('batch-coupled')).toContain(isolation);
    expect(failing('batch-coupled', { ...withLengths, groupLocal: false })).not.toContain(isolation);
  });

  it('flags non-finite scores that leak into baselines', () => {
    expect(failing('nan-in-baseline')).toContain(
      'gives non-finite scores advantage 0 and leaves them out of every baseline',
    );
  });

  it('flags an estimator that leaves stale entries in a reused `out` array', () => {
    expect(failing('dirty-out')).toEqual([
      'gives the same advantages when handed a used `out` array to write into',
    ]);
  });

  it('flags an estimator that rejects batch fields it does not know', () => {
    expect(failing('strict-fields')).toEqual([
      'ignores batch fields it does not read (the batch contract only grows)',
    ]);
  });

  it('flags a required field whose absence is not reported', () => {
    expect(failing('no-missing-field')).toEqual([
      'throws MissingFieldError naming "lengths" when it is missing',
    ]);
  });

  it('says what went wrong', () => {
    const check = estimatorConformanceChecks(
      () => createCentred({ breakWith: 'nan-in-baseline' }),
      withLengths,
    ).find((c) => c.name.startsWith('gives non-finite'))!;
    expect(() => check.run()).toThrow(/has score (NaN|Infinity|-Infinity) but advantage NaN/);
  });
});

/**
 * A tiny estimator with step-level credit: A_i = r_i − mean of the group's finite scores, and per step
 * A_i + stepRewards[i][t] − the group's mean step reward. Needs `stepRewards`.
 */
function createStepCentred(options: { breakWith?: string } = {}): AdvantageEstimator {
  const mode = options.breakWith;
  return {
    name: 'step-centred',
    estimate(batch: AdvantageBatch) {
      const steps = batch.stepRewards;
      if (!steps) throw new MissingFieldError('step-centred', 'stepRewards');
      const n = batch.scores.length;
      if (batch.groupIds.length !== n) throw new InvalidArgumentError('batch.groupIds', 'wrong length');
      const sums = new Map<string | number, { sum: number; count: number; steps: number; stepSum: number }>();
      let batchSum = 0;
      for (let i = 0; i < n; i++) {
        const x = batch.scores[i] as number;
        if (!Number.isFinite(x)) continue;
        const g = batch.groupIds[i] as string | number;
        const entry = sums.get(g) ?? { sum: 0, count: 0, steps: 0, stepSum: 0 };
        entry.sum += x;
        entry.count++;
        for (const r of Array.from(steps[i] as ArrayLike<number>)) {
          entry.steps++;
          entry.stepSum += r;
        }
        sums.set(g, entry);
        batchSum += x;
      }
      const advantages = new Float64Array(n);
      const stepAdvantages: (Float64Array | undefined)[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const x = batch.scores[i] as number;
        const row = Array.from(steps[i] as ArrayLike<number>);
        if (!Number.isFinite(x)) {
          if (mode === 'steps-for-skipped') stepAdvantages[i] = new Float64Array(row.length);
          continue;
        }
        const e = sums.get(batch.groupIds[i] as string | number)!;
        advantages[i] = x - e.sum / e.count;
        const stepMean = e.steps ? e.stepSum / e.steps : 0;
        const perStep = Float64Array.from(row, (r) => (advantages[i] as number) + r - stepMean);
        if (mode === 'steps-coupled') for (let t = 0; t < perStep.length; t++) perStep[t]! += batchSum / 1000;
        stepAdvantages[i] = mode === 'steps-wrong-length' ? new Float64Array(row.length + 1) : perStep;
      }
      return {
        advantages,
        stepAdvantages,
        metrics: { frac_zero_std: 0, groups_all_pass: 0, groups_all_fail: 0 },
      };
    },
  };
}

// One to three steps per sample, rewards from the rng: never from the scores.
const withStepRewards: EstimatorConformanceOptions = {
  requiredFields: ['stepRewards'],
  buildBatch: (base, rng) => ({
    ...base,
    stepRewards: base.scores.map(() => Array.from({ length: 1 + rng.int(3) }, () => rng.int(3))),
  }),
};

describeEstimatorConformance('step-centred (step-level credit)', () => createStepCentred(), withStepRewards);

describe('estimatorConformanceChecks holds step advantages to the same rules', () => {
  const failing = (breakWith: string) =>
    estimatorConformanceChecks(() => createStepCentred({ breakWith }), withStepRewards)
      .filter((check) => {
        try {
          check.run();
          return false;
        } catch {
          return true;
        }
      })
      .map((check) => check.name);

  it('passes a correct step-level estimator', () => {
    expect(failing('none')).toEqual([]);
  });

  it('flags step advantages for a sample with a non-finite score', () => {
    expect(failing('steps-for-skipped')).toEqual([
      'gives non-finite scores advantage 0 and leaves them out of every baseline',
    ]);
  });

  it('flags step advantages that couple groups', () => {
    expect(failing('steps-coupled')).toEqual([
      "changing one group's scores leaves every other group's advantages unchanged",
    ]);
  });

  it('flags a step-advantage row of the wrong length, naming the sample', () => {
    expect(failing('steps-wrong-length')).toContain(
      'returns one finite advantage per sample, as a Float64Array',
    );
    const check = estimatorConformanceChecks(
      () => createStepCentred({ breakWith: 'steps-wrong-length' }),
      withStepRewards,
    )[0]!;
    expect(() => check.run()).toThrow(/stepAdvantages\[0\] has \d+ entries, the sample has \d+ steps/);
  });
});
