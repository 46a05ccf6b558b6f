import { HEALTH_DEFAULTS, type ResolvedHealthOptions } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBudget } from './error-budget.js';

const endpoints = {
  rollout: { endpoint: 'http://127.0.0.1:1/v1', field: 'agent.options.baseURL' },
  editor: { endpoint: 'unknown' },
};
const budget = (options: Partial<ResolvedHealthOptions> = {}) =>
  new ErrorBudget({ ...HEALTH_DEFAULTS, ...options }, endpoints, '/runs/x');
const refused = { code: 'model', message: 'APIConnectionError: Connection error.' };

describe('ErrorBudget.judgeUnit', () => {
  it('trips on a unit over the share although the rolling window, full of clean units, is under it', () => {
    const b = budget();
    for (let i = 0; i < 150; i++) expect(b.record('rollout', undefined)).toBeUndefined();
    const unit = [undefined, undefined, ...Array.from({ length: 10 }, () => refused)];
    for (const e of unit) expect(b.record('rollout', e)).toBeUndefined(); // 10 of 162: the window holds
    const error = b.judgeUnit('rollout', 'g2', unit);
    expect(error?.details).toMatchObject({
      rule: 'unit',
      unit: 'g2',
      errors: 10,
      samples: 12,
      threshold: 0.5,
    });
    expect(error?.message).toContain(
      '10 of the 12 rollouts of unit g2 ended in an error (83% > health.maxErrorShare 50%); the unit was not scored',
    );
    expect(error?.message).toContain('Most common (10×): model: APIConnectionError: Connection error');
    expect(b.tripped).toBe(error);
  });

  it('a unit at the share exactly, or with no error, passes; maxErrorShare 1 never trips', () => {
    expect(budget().judgeUnit('rollout', 's1', [refused, undefined])).toBeUndefined();
    expect(budget().judgeUnit('rollout', 's1', [undefined, undefined])).toBeUndefined();
    expect(budget().judgeUnit('rollout', 's1', [])).toBeUndefined();
    expect(budget({ maxErrorShare: 1 }).judgeUnit('rollout', 's1', [refused, refused])).toBeUndefined();
  });

  it('property: trips exactly when errors / n > maxErrorShare', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (failed, share) => {
          const outcomes = failed.map((f) => (f ? refused : undefined));
          const errors = failed.filter(Boolean).length;
          const tripped = budget({ maxErrorShare: share }).judgeUnit('rollout', 'v0', outcomes) !== undefined;
          expect(tripped).toBe(errors > 0 && errors / failed.length > share);
        },
      ),
    );
  });
});

describe('ErrorBudget.judgeRun', () => {
  it('trips only when every rollout of the run failed, whatever maxErrorShare allows', () => {
    expect(budget({ maxErrorShare: 1 }).judgeRun('rollout', 16, 15, refused)).toBeUndefined();
    expect(budget({ maxErrorShare: 1 }).judgeRun('rollout', 0, 0, undefined)).toBeUndefined();
    const error = budget({ maxErrorShare: 1 }).judgeRun('rollout', 16, 16, refused);
    expect(error?.details).toMatchObject({ rule: 'all-failed', errors: 16, samples: 16, share: 1 });
    expect(error?.message).toContain("every one of the run's 16 rollouts ended in an error");
    expect(error?.message).toContain('skillrl resume /runs/x');
  });
});
