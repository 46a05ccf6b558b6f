import { describe, expect, it } from 'vitest';
import { SKILLC_RUN_DEFAULTS, skillcRunSettings } from './skillc-run-settings.js';

describe('skillcRunSettings', () => {
  it('applies the defaults to an empty section', () => {
    expect(skillcRunSettings()).toEqual({
      ...SKILLC_RUN_DEFAULTS,
      estimator: 'skillc',
      usesSkills: true,
      pairedValidation: true,
      label: 'internalize:skillc',
    });
    expect(skillcRunSettings({ ablation: 'fixed-rho' }).label).toBe('internalize:skillc:fixed-rho');
    expect(skillcRunSettings({ variant: 'grpo' }).usesSkills).toBe(false);
    expect(skillcRunSettings({ ablation: 'no-pairing' }).pairedValidation).toBe(false);
    // The ablation is SKILLC's: another variant keeps its pairing.
    expect(skillcRunSettings({ variant: 'skill0', ablation: 'no-pairing' }).pairedValidation).toBe(true);
    expect(skillcRunSettings({})).toMatchObject({
      steps: 20,
      tasksPerStep: 4,
      groupSize: 8,
      validateEvery: 10,
    });
  });

  it("keeps what the config gives, and picks each variant's estimator", () => {
    const s = skillcRunSettings({ variant: 'skill0', steps: 7, groupSize: 2, validationEpisodes: 3 });
    expect(s).toMatchObject({
      variant: 'skill0',
      steps: 7,
      groupSize: 2,
      validationEpisodes: 3,
      estimator: 'grpo',
    });
    expect(skillcRunSettings({ variant: 'grpo' }).estimator).toBe('grpo');
    expect(skillcRunSettings({ variant: 'd2skill-mixed' }).estimator).toBe('d2skill-mixed');
    // 0 is a value, not a missing field.
    expect(skillcRunSettings({ testEpisodes: 0 }).testEpisodes).toBe(0);
  });
});
