import type { SkillcAblation, SkillcVariant } from './variant-curriculum.js';

/** The run-shape fields of a config's `internalize` section that SKILLC's loop reads (all optional there). */
export interface SkillcRunSection {
  variant?: SkillcVariant;
  ablation?: SkillcAblation;
  steps?: number;
  tasksPerStep?: number;
  groupSize?: number;
  validateEvery?: number;
  validationEpisodes?: number;
  testEpisodes?: number;
}

/** Those fields with every default applied, and the estimator a variant scores with unless the config names one. */
export interface SkillcRunSettings {
  variant: SkillcVariant;
  ablation: SkillcAblation;
  steps: number;
  tasksPerStep: number;
  groupSize: number;
  validateEvery: number;
  validationEpisodes: number;
  testEpisodes: number;
  estimator: string;
  /** Whether any rollout carries a skill (every variant but plain GRPO). */
  usesSkills: boolean;
  /** Whether the paired validation pairs each task's with- and without-skill episodes (all but that ablation). */
  pairedValidation: boolean;
  /** The run's method label in its manifest: `internalize:skillc`, `internalize:skillc:fixed-rho`, … */
  label: string;
}

/**
 * The defaults of a SKILLC-family run (arXiv 2605.27899's loop at a laptop's budget: 20 steps of 4 tasks × 8
 * rollouts, a paired validation every 10 steps): one home, read by the run and by `skillrl check`'s
 * retirement forecast alike.
 */
export const SKILLC_RUN_DEFAULTS = {
  variant: 'skillc',
  ablation: 'none',
  steps: 20,
  tasksPerStep: 4,
  groupSize: 8,
  validateEvery: 10,
  validationEpisodes: 1,
  testEpisodes: 1,
} as const satisfies Pick<
  SkillcRunSettings,
  | 'variant'
  | 'ablation'
  | 'steps'
  | 'tasksPerStep'
  | 'groupSize'
  | 'validateEvery'
  | 'validationEpisodes'
  | 'testEpisodes'
>;

/**
 * Each variant's estimator: SKILLC its dual-stream estimator, D2Skill its mixed-group one, GRPO and SKILL0 plain
 * GRPO (their methods add no estimator of their own).
 */
export const SKILLC_VARIANT_ESTIMATORS: Readonly<Record<SkillcVariant, string>> = {
  skillc: 'skillc',
  grpo: 'grpo',
  skill0: 'grpo',
  'd2skill-mixed': 'd2skill-mixed',
};

/** A config's `internalize` section with the defaults applied. */
export function skillcRunSettings(section: SkillcRunSection = {}): SkillcRunSettings {
  const variant = section.variant ?? SKILLC_RUN_DEFAULTS.variant;
  const ablation = section.ablation ?? SKILLC_RUN_DEFAULTS.ablation;
  return {
    variant,
    ablation,
    steps: section.steps ?? SKILLC_RUN_DEFAULTS.steps,
    tasksPerStep: section.tasksPerStep ?? SKILLC_RUN_DEFAULTS.tasksPerStep,
    groupSize: section.groupSize ?? SKILLC_RUN_DEFAULTS.groupSize,
    validateEvery: section.validateEvery ?? SKILLC_RUN_DEFAULTS.validateEvery,
    validationEpisodes: section.validationEpisodes ?? SKILLC_RUN_DEFAULTS.validationEpisodes,
    testEpisodes: section.testEpisodes ?? SKILLC_RUN_DEFAULTS.testEpisodes,
    estimator: SKILLC_VARIANT_ESTIMATORS[variant],
    usesSkills: variant !== 'grpo',
    pairedValidation: !(variant === 'skillc' && ablation === 'no-pairing'),
    label: `internalize:${variant}${ablation === 'none' ? '' : `:${ablation}`}`,
  };
}
