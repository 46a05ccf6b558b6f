import type { ValidationResult } from '@skillrl/core';

/**
 * SKILLC's summary metrics from its paired validations, per skill type and averaged over the types (each type
 * weighs the same, whatever its episode count): the held-out test's success with and without the skill
 * (`test_with_<type>`, `test_without_<type>`, `test_success_with`, `test_success_without`), and the last
 * validation's (`final_…`), with `final_gap` = with − without, what internalization should drive to zero.
 * A validation not given adds none of its keys.
 */
export function skillcSummaryMetrics(input: {
  test?: ValidationResult | undefined;
  lastValidation?: ValidationResult | undefined;
}): Record<string, number> {
  const metrics: Record<string, number> = {};
  const { test, lastValidation: last } = input;
  if (test) {
    const rates = Object.entries(test.families);
    for (const [family, v] of rates) {
      metrics[`test_without_${family}`] = v.withoutSkill;
      metrics[`test_with_${family}`] = v.withSkill;
    }
    const n = rates.length || 1;
    metrics.test_success_without = rates.reduce((a, [, v]) => a + v.withoutSkill, 0) / n;
    metrics.test_success_with = rates.reduce((a, [, v]) => a + v.withSkill, 0) / n;
  }
  if (last) {
    let w = 0;
    let o = 0;
    let n = 0;
    for (const [family, v] of Object.entries(last.families)) {
      metrics[`final_without_${family}`] = v.withoutSkill;
      metrics[`final_with_${family}`] = v.withSkill;
      w += v.withSkill;
      o += v.withoutSkill;
      n++;
    }
    const withSkill = n ? w / n : 0;
    const withoutSkill = n ? o / n : 0;
    metrics.final_success_without = withoutSkill;
    metrics.final_success_with = withSkill;
    metrics.final_gap = withSkill - withoutSkill;
  }
  return metrics;
}
