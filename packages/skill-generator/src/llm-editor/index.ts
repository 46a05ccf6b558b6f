export {
  createLlmSkillEditor,
  type EditorSampling,
  type LlmSkillEditorOptions,
  type RejectedReply,
  renderRejections,
} from './create-llm-skill-editor.js';
export {
  DEFAULT_EDITOR_SYSTEM,
  DEFAULT_EDITOR_TEMPLATE,
  DEFAULT_EDITOR_USER,
  EDITOR_PLACEHOLDERS,
  type EditorPlaceholder,
  type EditorTemplate,
  renderEditorTemplate,
  resolveEditorTemplate,
} from './editor-template.js';
export { type ExtractedSkillText, extractSkillText, type SkillTextSource } from './extract-skill-text.js';
// The LLM editor as a config names it, and its check: the trainer, when one is named, comes from the host.
export {
  checkLlmEditorOptions,
  createLlmEditorFromConfig,
  type LlmEditorConfigContext,
  type LlmEditorTrainer,
  type LlmEditorTraining,
} from './llm-editor-from-config.js';
export { normalizeSkillName, type RepairResult, repairSkill, type SkillDefaults } from './repair-skill.js';
