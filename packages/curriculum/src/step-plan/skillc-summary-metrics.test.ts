import type { ValidationResult } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { skillcSummaryMetrics } from './skillc-summary-metrics.js';

const result = (step: number, rates: Record<string, [number, number]>): ValidationResult => ({
  step,
  families: Object.fromEntries(
    Object.entries(rates).map(([f, [withSkill, withoutSkill]]) => [
      f,
      { withSkill, withoutSkill, withSkillEpisodes: 4, withoutSkillEpisodes: 4 },
    ]),
  ),
});

describe('skillcSummaryMetrics', () => {
  it('per type and averaged over the types, for the test and the last validation (golden values)', () => {
    const metrics = skillcSummaryMetrics({
      test: result(20, { heat: [0.75, 0.25], cool: [0.5, 0.5] }),
      lastValidation: result(20, { heat: [1, 0.5], cool: [0.5, 0] }),
    });
    expect(metrics).toEqual({
      test_without_heat: 0.25,
      test_with_heat: 0.75,
      test_without_cool: 0.5,
      test_with_cool: 0.5,
      // (0.25 + 0.5) / 2 and (0.75 + 0.5) / 2
      test_success_without: 0.375,
      test_success_with: 0.625,
      final_without_heat: 0.5,
      final_with_heat: 1,
      final_without_cool: 0,
      final_with_cool: 0.5,
      // (0.5 + 0) / 2 and (1 + 0.5) / 2; the gap 0.75 − 0.25
      final_success_without: 0.25,
      final_success_with: 0.75,
      final_gap: 0.5,
    });
  });

  it('nothing for a validation not given; a validation without types is 0, not NaN', () => {
    expect(skillcSummaryMetrics({})).toEqual({});
    expect(skillcSummaryMetrics({ test: result(5, {}), lastValidation: result(5, {}) })).toEqual({
      test_success_without: 0,
      test_success_with: 0,
      final_success_without: 0,
      final_success_with: 0,
      final_gap: 0,
    });
  });
});
