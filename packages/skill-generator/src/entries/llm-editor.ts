/**
 * @skillrl/skill-generator/llm-editor — the LLM skill editor (inference-mode Skill-R1) and the history it
 * conditions on. Loads no tfjs: install neither @skillrl/tensor-ops nor @tensorflow/tfjs for it.
 */

// History H_{g−1} as editors read it.
export * from '../history/index.js';
// The LLM editor: replaceable prompt template, SKILL.md extraction and repair.
export * from '../llm-editor/index.js';
