export {
  type PairedValidationInput,
  planPairedValidation,
  summariseValidation,
  type ValidationGap,
  validationGap,
} from './paired-validation.js';
export {
  attributionStrengthsOf,
  type EpisodeGroup,
  type GroupPlan,
  planSkillcStep,
  type SkillcStepInput,
  type SkillcStepPlan,
  sampleStepTasks,
} from './plan-skillc-step.js';
export {
  type ReplaySkillcUpdatesInput,
  replayBatch,
  replaySkillcUpdates,
  type StoredAdvantageRow,
} from './replay-batch.js';
export {
  type DynamicSampling,
  type RunSkillcStepInput,
  runSkillcStep,
  type SkillcStepMetrics,
  type SkillcStepPorts,
  type SkillcStepResult,
  skillcValidationDue,
} from './run-skillc-step.js';
export { createStepSkills, type SkillContexts, type StepSkills, skillContexts } from './skill-contexts.js';
// What a run's summary reports of its validations.
export { skillcSummaryMetrics } from './skillc-summary-metrics.js';
export { SKILLC_STEP_BATCH_FIELDS } from './step-batch-fields.js';
export {
  groupHasSignal,
  groupsByTask,
  type SignalMetric,
  type StepSignal,
  stepSignal,
  zeroUpdate,
} from './step-signal.js';
