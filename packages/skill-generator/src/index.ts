/**
 * @skillrl/skill-generator — the skill editors of Skill-R1, and the history summaries they condition on.
 */

// Skill-R1's generation step: proposals with their checks and fallback, the two-level batch, the editor
// update, the carried skill and the history records. The orchestrator persists what it returns.
export * from './generation/index.js';

// History H_{g−1} as editors read it: summaries of failed and successful episodes, earlier skills and rewards.
export * from './history/index.js';

// The trainable step editor: a small tfjs policy over the adapter's step vocabulary, trained by clipped GRPO.
export * from './step-editor/index.js';

// The LLM editor (inference-mode Skill-R1): replaceable prompt template, SKILL.md extraction and repair.
export * from './llm-editor/index.js';
