/**
 * @skillrl/skill-generator/step-editor — the trainable in-process step editor (a small tfjs policy over the
 * adapter's step vocabulary) and the history it conditions on. Needs @skillrl/tensor-ops and @tensorflow/tfjs.
 */

// History H_{g−1} as editors read it.
export * from '../history/index.js';
// The trainable step editor, trained by clipped GRPO.
export * from '../step-editor/index.js';
