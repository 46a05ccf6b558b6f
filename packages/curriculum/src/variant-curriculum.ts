import type { AnyCurriculum } from './restore-curriculum.js';
import { createSkill0Curriculum, type Skill0CurriculumOptions } from './skill0-curriculum.js';
import { createSkillcCurriculum, type SkillcCurriculumOptions } from './skillc-curriculum.js';
import { createStaticCurriculum, type StaticCurriculumOptions } from './static-curriculum.js';

/** The rows of SKILLC's comparison (arXiv 2605.27899): SKILLC itself and the baselines it is run against. */
export type SkillcVariant = 'skillc' | 'grpo' | 'skill0' | 'd2skill-mixed';
/** SKILLC's ablations; `no-pairing` changes the validation, not the curriculum. */
export type SkillcAblation = 'none' | 'no-pairing' | 'fixed-rho' | 'no-pruning' | 'optimistic-start';

/** Which curriculum a variant runs, and the options it fixes (a run's own options go on top). */
export interface SkillcVariantOptions {
  kind: 'skillc' | 'skill0' | 'static';
  options: { rho?: number; lambda?: number; fixedRho?: number; prune?: boolean; optimisticStart?: number };
}

/**
 * The options each variant and ablation fixes: plain GRPO is a static curriculum with no skill and no
 * attribution (ρ 0, λ 0); D2Skill's mixed groups, half of each group with the skill and half without (ρ 0.5,
 * λ 0); the ablations pin ρ at 0.5, keep every skill type active, or start each type's gap at 1.
 */
export function skillcVariantOptions(variant: SkillcVariant, ablation: SkillcAblation): SkillcVariantOptions {
  switch (variant) {
    case 'skill0':
      return { kind: 'skill0', options: {} };
    case 'grpo':
      return { kind: 'static', options: { rho: 0, lambda: 0 } };
    case 'd2skill-mixed':
      // D2Skill: half of each group with the skill, the other half without.
      return { kind: 'static', options: { rho: 0.5, lambda: 0 } };
    default:
      switch (ablation) {
        case 'fixed-rho':
          return { kind: 'skillc', options: { fixedRho: 0.5 } };
        case 'no-pruning':
          return { kind: 'skillc', options: { prune: false } };
        case 'optimistic-start':
          return { kind: 'skillc', options: { optimisticStart: 1 } };
        default:
          return { kind: 'skillc', options: {} };
      }
  }
}

export interface VariantCurriculumInput {
  variant: SkillcVariant;
  ablation: SkillcAblation;
  /** The skill types (the adapter's families). */
  families: string[];
  /** The run's training steps (SKILL0's schedule splits them into phases). */
  totalSteps: number;
  /** Validations every d steps. */
  d: number;
  /** SKILL0: each family's own skill file and the general files (`skillContexts(…).files` and `.general`). */
  files: Record<string, string>;
  generalSkills: string[];
}

/**
 * A fresh curriculum for a variant: its kind, the options the variant fixes, then `overrides` (the run's
 * own curriculum options, checked by the curriculum it reaches). Restore a saved one with
 * `restoreCurriculum`.
 */
export function createVariantCurriculum(
  input: VariantCurriculumInput,
  overrides: Record<string, unknown> = {},
): AnyCurriculum {
  const { kind, options } = skillcVariantOptions(input.variant, input.ablation);
  const families = input.families;
  if (kind === 'skill0') {
    // A family without a skill file of its own has no section to drop or keep: it is not SKILL0's to rank.
    const ranked = families.filter((f) => input.files[f] !== undefined);
    return createSkill0Curriculum({
      families: ranked.length > 0 ? ranked : families,
      totalSteps: input.totalSteps,
      d: input.d,
      ...(ranked.length > 0 ? { files: input.files, generalSkills: input.generalSkills } : {}),
      ...options,
      ...overrides,
    } as Skill0CurriculumOptions);
  }
  if (kind === 'static') {
    return createStaticCurriculum({ families, ...options, ...overrides } as StaticCurriculumOptions);
  }
  return createSkillcCurriculum({
    families,
    d: input.d,
    ...options,
    ...overrides,
  } as SkillcCurriculumOptions);
}
