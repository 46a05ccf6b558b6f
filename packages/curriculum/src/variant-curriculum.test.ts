import { describe, expect, it } from 'vitest';
import type { Skill0CurriculumJSON } from './skill0-curriculum.js';
import type { SkillcCurriculumJSON } from './skillc-curriculum.js';
import { createVariantCurriculum, skillcVariantOptions } from './variant-curriculum.js';

describe('skillcVariantOptions', () => {
  it('fixes each variant and ablation as SKILLC runs its comparison', () => {
    expect(skillcVariantOptions('skillc', 'none')).toEqual({ kind: 'skillc', options: {} });
    expect(skillcVariantOptions('skillc', 'no-pairing')).toEqual({ kind: 'skillc', options: {} });
    expect(skillcVariantOptions('skillc', 'fixed-rho')).toEqual({
      kind: 'skillc',
      options: { fixedRho: 0.5 },
    });
    expect(skillcVariantOptions('skillc', 'no-pruning')).toEqual({
      kind: 'skillc',
      options: { prune: false },
    });
    expect(skillcVariantOptions('skillc', 'optimistic-start')).toEqual({
      kind: 'skillc',
      options: { optimisticStart: 1 },
    });
    expect(skillcVariantOptions('skill0', 'none')).toEqual({ kind: 'skill0', options: {} });
    expect(skillcVariantOptions('grpo', 'none')).toEqual({ kind: 'static', options: { rho: 0, lambda: 0 } });
    // D2Skill: half of each group with the skill, half without.
    expect(skillcVariantOptions('d2skill-mixed', 'none')).toEqual({
      kind: 'static',
      options: { rho: 0.5, lambda: 0 },
    });
  });

  it("an ablation is SKILLC's alone: the baselines ignore it", () => {
    expect(skillcVariantOptions('grpo', 'fixed-rho')).toEqual(skillcVariantOptions('grpo', 'none'));
    expect(skillcVariantOptions('skill0', 'no-pruning')).toEqual(skillcVariantOptions('skill0', 'none'));
  });
});

describe('createVariantCurriculum', () => {
  const base = {
    families: ['heat', 'cool'],
    totalSteps: 20,
    d: 5,
    files: { heat: 'heat' },
    generalSkills: ['general'],
  };

  it('skillc: d from the run, the ablation fixed, the run options on top', () => {
    const c = createVariantCurriculum({ ...base, variant: 'skillc', ablation: 'fixed-rho' }, { lambda: 0.5 });
    expect(c.name).toBe('skillc');
    const json = c.toJSON() as unknown as SkillcCurriculumJSON;
    expect(json.options).toMatchObject({ families: ['heat', 'cool'], d: 5, fixedRho: 0.5, lambda: 0.5 });
    const noPruning = createVariantCurriculum({ ...base, variant: 'skillc', ablation: 'no-pruning' });
    expect((noPruning.toJSON() as unknown as SkillcCurriculumJSON).options.prune).toBe(false);
  });

  it('grpo and d2skill-mixed: static, ρ 0 and 0.5 for every type, λ 0', () => {
    const grpo = createVariantCurriculum({ ...base, variant: 'grpo', ablation: 'none' });
    expect(grpo.name).toBe('static');
    expect(grpo.state()).toMatchObject({
      rho: { heat: 0, cool: 0 },
      lambda: { heat: 0, cool: 0 },
      active: [],
    });
    const mixed = createVariantCurriculum({ ...base, variant: 'd2skill-mixed', ablation: 'none' });
    expect(mixed.state()).toMatchObject({
      rho: { heat: 0.5, cool: 0.5 },
      lambda: { heat: 0, cool: 0 },
      active: ['heat', 'cool'],
    });
  });

  it('skill0 ranks only the types with a skill file of their own; with none, every type', () => {
    const c = createVariantCurriculum({ ...base, variant: 'skill0', ablation: 'none' });
    expect(c.name).toBe('skill0');
    const json = c.toJSON() as unknown as Skill0CurriculumJSON;
    expect(json.options).toMatchObject({
      families: ['heat'],
      totalSteps: 20,
      d: 5,
      files: { heat: 'heat' },
      generalSkills: ['general'],
    });
    const none = createVariantCurriculum({ ...base, files: {}, variant: 'skill0', ablation: 'none' });
    expect((none.toJSON() as unknown as Skill0CurriculumJSON).options.families).toEqual(['heat', 'cool']);
  });
});
