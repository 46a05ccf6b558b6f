/**
 * @skillrl/skill-generator — Skill-R1's generation step, the LLM skill editor and the history summaries
 * editors condition on. Loads no tfjs: the trainable step editor is on `@skillrl/skill-generator/step-editor`
 * only, because a root that re-exported it would make every LLM-only install import @tensorflow/tfjs.
 */

// Skill-R1's generation step: proposals with their checks and fallback, the two-level batch, the editor
// update, the carried skill and the history records. The orchestrator persists what it returns.
export * from './generation/index.js';

// History H_{g−1} as editors read it: summaries of failed and successful episodes, earlier skills and rewards.
export * from './history/index.js';

// The step editor's option vocabulary and check, without tfjs (the editor is on `./step-editor`).
export {
  checkStepEditorOptions,
  STEP_EDITOR_OPTIONS,
} from './step-editor/check-step-editor-options.js';

// The LLM editor (inference-mode Skill-R1): replaceable prompt template, SKILL.md extraction and repair.
export * from './llm-editor/index.js';
