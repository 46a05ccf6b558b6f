import type { AdvantageBatch, AdvantageEstimator, EstimateOptions } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { createEstimator } from '../registry/estimator-registry.js';
import { combineStepAdvantages, type WeightedResult } from './combine-step-advantages.js';

/** An estimator (or a registered name) and its weight. */
export type WeightedEstimator = readonly [AdvantageEstimator | string, number];

/**
 * A weighted sum of estimators, A = Σ_k w_k · A_k, over the same batch. Each part's metrics come back
 * prefixed `<k>.<name>/` (k its position), and the shared bookkeeping (`frac_zero_std`, `groups_all_pass`,
 * `groups_all_fail`, `nonfinite`) is computed once for the batch at the top level. When a part returns
 * step-level credit (`gigpo`), the sum does too, each other part's advantage broadcast over the steps.
 */
export function combineEstimators(parts: readonly WeightedEstimator[]): AdvantageEstimator {
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new InvalidArgumentError(
      'parts',
      'combineEstimators: expected a non-empty list of [estimator, weight]',
    );
  }
  const resolved = parts.map((part, k) => {
    if (!Array.isArray(part) || part.length !== 2) {
      throw new InvalidArgumentError(`parts[${k}]`, 'expected a pair [estimator or name, weight]');
    }
    const [estimator, weight] = part as unknown as WeightedEstimator;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      throw new InvalidArgumentError(`parts[${k}][1]`, `expected a finite weight, got ${String(weight)}`);
    }
    const resolvedEstimator = typeof estimator === 'string' ? createEstimator(estimator) : estimator;
    if (!resolvedEstimator || typeof resolvedEstimator.estimate !== 'function') {
      throw new InvalidArgumentError(
        `parts[${k}][0]`,
        'expected an estimator with estimate(batch), or a registered name',
      );
    }
    return { estimator: resolvedEstimator, weight };
  });
  const name = resolved.map(({ estimator, weight }) => `${weight}*${estimator.name}`).join('+');
  return {
    name,
    estimate(batch: AdvantageBatch, options?: EstimateOptions) {
      const { checked, bookkeeping } = prepareGroups(name, batch);
      // The parts write fresh arrays: `out` is the running sum, so it cannot be lent to them.
      const advantages = outputArray(name, checked.size, options);
      const metrics: Record<string, number> = { ...bookkeeping };
      const results: WeightedResult[] = [];
      resolved.forEach(({ estimator, weight }, k) => {
        const part = estimator.estimate(batch);
        if (part.advantages.length !== checked.size) {
          throw new InvalidArgumentError(
            `parts[${k}]`,
            `${estimator.name} returned ${part.advantages.length} advantages for ${checked.size} samples`,
          );
        }
        for (let i = 0; i < checked.size; i++) advantages[i]! += weight * (part.advantages[i] as number);
        for (const [key, value] of Object.entries(part.metrics) as [string, number][])
          metrics[`${k}.${estimator.name}/${key}`] = value;
        results.push({ weight, name: estimator.name, result: part });
      });
      const stepAdvantages = combineStepAdvantages(results, checked.size);
      return stepAdvantages ? { advantages, stepAdvantages, metrics } : { advantages, metrics };
    },
  };
}
