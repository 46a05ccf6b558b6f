/**
 * @skillrl/curriculum — which skills a training run uses, how strongly SKILLC corrects credit toward
 * skill-free success, and how many rollouts carry the skill, per skill type.
 */

// Checkpoints: restore any of them by kind.
export { type AnyCurriculum, type CurriculumJSON, restoreCurriculum } from './restore-curriculum.js';

// SKILL0 baseline, as its code does it: ranked skill files under a max-set schedule (not monotone), and
// the with-skill context each family's prompt carries.
export { composeSkillContext } from './compose-skill-context.js';
export {
  createSkill0Curriculum,
  restoreSkill0Curriculum,
  type Skill0Curriculum,
  type Skill0CurriculumJSON,
  type Skill0CurriculumOptions,
} from './skill0-curriculum.js';
// SKILLC: smoothed validation gap → λ_k, ρ_k; monotone retirement on information (a confidence bound of
// the recent pooled gap below τ).
export { evidenceForBound, gapInterval, type SideCounts, wilsonInterval } from './gap-bound.js';
export {
  createSkillcCurriculum,
  type RetirementReach,
  restoreSkillcCurriculum,
  retirementReach,
  type SkillcCurriculum,
  type SkillcCurriculumJSON,
  type SkillcCurriculumOptions,
  type SkillcEvidence,
} from './skillc-curriculum.js';
// SKILLC's step planning, as plain data for rollout's planner: the tasks a step samples, the skill and the
// with-skill share of each group, λ_k per sample, each family's skill context, the paired validation, and a
// stored step's update rebuilt for replay (replayBatch).
export * from './step-plan/index.js';

// The variants SKILLC is compared with and its ablations: the curriculum and options each one fixes.
export {
  createVariantCurriculum,
  type SkillcAblation,
  type SkillcVariant,
  type SkillcVariantOptions,
  skillcVariantOptions,
  type VariantCurriculumInput,
} from './variant-curriculum.js';

// Static: fixed ρ and λ.
export {
  createStaticCurriculum,
  restoreStaticCurriculum,
  type StaticCurriculum,
  type StaticCurriculumJSON,
  type StaticCurriculumOptions,
} from './static-curriculum.js';

// A SKILLC-family run's shape (steps, tasks per step, group size, validation cadence) with its defaults, and
// each variant's estimator.
export {
  SKILLC_RUN_DEFAULTS,
  SKILLC_VARIANT_ESTIMATORS,
  type SkillcRunSection,
  type SkillcRunSettings,
  skillcRunSettings,
} from './skillc-run-settings.js';
