import type { AdvantageEstimator } from '@skillrl/core';
import { describe, it } from 'vitest';
import {
  type EstimatorConformanceOptions,
  estimatorConformanceChecks,
} from './estimator-conformance-checks.js';

/**
 * Declares the estimator conformance checks as vitest tests, one `it` per check, under
 * `describe('estimator conformance: <name>')`. Call it at the top level of a test file.
 */
export function describeEstimatorConformance(
  name: string,
  create: () => AdvantageEstimator,
  options: EstimatorConformanceOptions = {},
): void {
  describe(`estimator conformance: ${name}`, () => {
    for (const check of estimatorConformanceChecks(create, options)) it(check.name, () => check.run());
  });
}
