import type { CurriculumController, JsonObject } from '@skillrl/core';
import { importBuiltin } from '../components/import-package.js';
import type { InternalizeSection } from '../config/config-types.js';

type Variant = NonNullable<InternalizeSection['variant']>;
type Ablation = NonNullable<InternalizeSection['ablation']>;

/** The options each variant and ablation fixes; the config's `curriculum` options are applied on top. */
export function curriculumOptions(
  variant: Variant,
  ablation: Ablation,
): { kind: string; options: JsonObject } {
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

/** Creates the variant's curriculum, or restores it from a checkpoint's JSON. */
export async function createRunCurriculum(
  variant: Variant,
  ablation: Ablation,
  base: {
    families: string[];
    steps: number;
    d: number;
    /** SKILL0: each family's own skill file and the general files (the adapter's inventory read as SKILL0's). */
    files: Record<string, string>;
    generalSkills: string[];
  },
  overrides: JsonObject,
  saved?: unknown,
): Promise<CurriculumController> {
  const mod = await importBuiltin('@skillrl/curriculum', 'the curriculum');
  if (saved !== undefined) {
    return (mod.restoreCurriculum as (json: unknown) => CurriculumController)(saved);
  }
  const { kind, options } = curriculumOptions(variant, ablation);
  const families = base.families;
  if (kind === 'skill0') {
    // A family without a skill file of its own has no section to drop or keep: it is not SKILL0's to rank.
    const ranked = families.filter((f) => base.files[f] !== undefined);
    return (mod.createSkill0Curriculum as (o: JsonObject) => CurriculumController)({
      families: ranked.length > 0 ? ranked : families,
      totalSteps: base.steps,
      d: base.d,
      ...(ranked.length > 0 ? { files: base.files, generalSkills: base.generalSkills } : {}),
      ...options,
      ...overrides,
    });
  }
  if (kind === 'static') {
    return (mod.createStaticCurriculum as (o: JsonObject) => CurriculumController)({
      families,
      ...options,
      ...overrides,
    });
  }
  return (mod.createSkillcCurriculum as (o: JsonObject) => CurriculumController)({
    families,
    d: base.d,
    ...options,
    ...overrides,
  });
}
