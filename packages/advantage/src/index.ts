/**
 * @skillrl/advantage — advantage estimators as pure functions on typed arrays, behind a registry that
 * uses verl's names: the GRPO family with each library's conventions, RLOO, REINFORCE++, OPO, ReMax, GPG,
 * Skill-R1's two-level and SKILLC's dual-stream estimators, D2Skill's mixed normalisation, and GiGPO's
 * step-level credit (`stepAdvantages`).
 */

// Composition: a weighted sum of estimators.
export { combineEstimators, type WeightedEstimator } from './compose/combine-estimators.js';
// Each estimator's factory and options, for use without the registry.
export { createD2SkillMixed, type D2SkillMixedOptions } from './estimators/d2skill-mixed.js';
export { createDrGrpo, type DrGrpoOptions } from './estimators/dr-grpo.js';
export { createGigpo, type GigpoMode, type GigpoOptions } from './estimators/gigpo.js';
export { createGpg, type GpgOptions } from './estimators/gpg.js';
export type { NormalizeConvention } from './estimators/group-normalize.js';
export { createGrpo, GRPO_PRESETS, type GrpoOptions, type GrpoPreset } from './estimators/grpo.js';
export { createGrpoPassk, type GrpoPasskOptions } from './estimators/grpo-passk.js';
export { createOpo, type OpoOptions } from './estimators/opo.js';
export { createReinforcePp, type ReinforcePpOptions } from './estimators/reinforce-pp.js';
export {
  createReinforcePpBaseline,
  type ReinforcePpBaselineOptions,
} from './estimators/reinforce-pp-baseline.js';
export { createRemax } from './estimators/remax.js';
export { createRloo, type RlooOptions } from './estimators/rloo.js';
export {
  createSkillR1,
  SKILL_R1_BATCH_OVERRIDES,
  type SkillR1InterBaseline,
  type SkillR1Options,
} from './estimators/skill-r1.js';
export {
  createSkillc,
  SKILLC_BATCH_OVERRIDES,
  type SkillcCorrection,
  type SkillcOptions,
} from './estimators/skillc.js';
export type { GroupBookkeeping, OutcomeRule } from './group/group-bookkeeping.js';
// Group bookkeeping shared by every estimator, for third-party estimators that want the same metrics.
export { buildGroupIndex, type GroupIndex } from './group/group-index.js';
export type { StdKind } from './group/group-moments.js';
export { type PreparedGroups, prepareGroups } from './group/prepare-groups.js';
export type { BuiltinEstimatorOptions } from './registry/builtin-estimators.js';
// The registry: create by name, register your own, list what is there, and what batch fields override.
export {
  createEstimator,
  estimatorBatchOverrides,
  listEstimators,
  registerEstimator,
  unregisterEstimator,
} from './registry/estimator-registry.js';
