/**
 * @skillrl/tensor-ops — where a tfjs policy actually learns: backend choice, policy losses, KL penalties,
 * loss aggregation, and one policy-gradient step that accumulates micro-batches exactly.
 */

// Backend choice: tfjs-node-gpu → tfjs-node → wasm → cpu (one choice a process: ensureBackend), and the
// kernels wasm lacks.
export {
  BACKEND_ENV_VAR,
  BACKEND_ORDER,
  type BackendAttempt,
  type BackendChoice,
  type BackendInfo,
  type InitBackendOptions,
  initBackend,
} from './backend/init-backend.js';
export { ensureBackend } from './backend/ensure-backend.js';
export { registerWasmKernels } from './backend/register-wasm-kernels.js';

// Policy losses by name (verl's vocabulary), and the registry to add more.
export { getPolicyLoss, listPolicyLosses, policyLoss, registerPolicyLoss } from './loss/policy-loss.js';
export type {
  PolicyLossFn,
  PolicyLossInput,
  PolicyLossOutput,
  ResolvedPolicyLossInput,
} from './loss/policy-loss-types.js';

// KL estimators against a reference policy.
export { KL_KINDS, type KlKind, klPenalty } from './kl/kl-penalty.js';

// From a per-token loss to one scalar, with a normaliser that survives micro-batching.
export {
  AGGREGATION_MODES,
  type AggregateOptions,
  type AggregationMode,
  aggregateLoss,
  lossNormalizer,
} from './aggregate/aggregate-loss.js';

// Gradient plumbing the losses are built from, for custom losses.
export { maskedMean } from './ops/masked-mean.js';
export { stopGradient, straightThrough } from './ops/stop-gradient.js';

// One optimiser step of a model that returns per-token log-probs.
export type { LogProbModel, LogProbOutput } from './train/log-prob-model.js';
export {
  type MatrixLike,
  type PolicyBatch,
  type PolicyGradientStepOptions,
  type PolicyStepMetrics,
  policyGradientStep,
} from './train/policy-gradient-step.js';

// The same loss taken with respect to per-token log-probs, for a model with hand-written gradients, and the
// clip-and-apply end of a step.
export {
  type FlatMatrixLike,
  type LossGradientBatch,
  type LossGradientMetrics,
  type PolicyLossGradients,
  policyLossGradients,
} from './train/policy-loss-gradients.js';
export { type AppliedGradients, applyClippedGradients } from './train/apply-clipped-gradients.js';
export type { StepLossOptions } from './train/step-objective.js';
