export { checkStepEditorOptions, STEP_EDITOR_OPTIONS } from './check-step-editor-options.js';
export { chooseBaseSkill, type EditBase, type SkillEvidence, skillEvidence } from './choose-base-skill.js';
export {
  createStepEditor,
  END_OF_SKILL,
  type StepCandidate,
  type StepCandidateInfo,
  type StepEditor,
} from './create-step-editor.js';
export { contextLayout, encodeContext, HISTORY_SCALARS, hashWords, skillStepIds } from './encode-context.js';
export { loadStepEditor } from './load-step-editor.js';
export {
  STEP_EDITOR_CONFIG_FILE,
  STEP_EDITOR_FORMAT,
  STEP_EDITOR_WEIGHTS_FILE,
  type StepEditorCheckpointConfig,
} from './step-editor-checkpoint.js';
export { createStepEditorFromConfig } from './step-editor-from-config.js';
export type { ResolvedStepEditorOptions, StepEditorOptions } from './step-editor-options.js';
export { buildStepIndex, normalizeStep, type StepIndex } from './step-index.js';
export { readNumberedSteps, renderStepSkill, stepSkillName } from './step-skill.js';
