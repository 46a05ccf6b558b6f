/**
 * @skillrl/trainer-tinker — train LLM policies and skill editors on an existing engine: the Tinker API
 * (Thinking Machines' hosted service, or a self-hosted skyrl-tx). A typed client of the API as the Tinker SDK
 * speaks it, the Tinker agent and SKILLC's policy trainer, and a trainable LLM skill editor for Skill-R1.
 */

// The HTTP client: sessions, training runs, forward_backward / optim_step, checkpoints, sampling, futures.
export * from './client/index.js';
// The model's own tokenizer and chat template, from local files.
export {
  type ChatTokenizer,
  type ChatTokenizerOptions,
  chatTokenizerFrom,
  loadChatTokenizer,
  type TemplateMessage,
} from './tokenizer/load-chat-tokenizer.js';
// A policy whose weights live on Tinker, and what samples from and trains it.
export {
  TinkerPolicy,
  type TinkerPolicyOptions,
  type TinkerPolicyState,
  type TinkerSampleOptions,
  type TinkerTrainOptions,
} from './policy/tinker-policy.js';
export {
  createTinkerAgent,
  isTinkerAgent,
  type TinkerAgent,
  type TinkerAgentOptions,
} from './policy/create-tinker-agent.js';
export { createTinkerTrainer, type TinkerTrainer } from './policy/create-tinker-trainer.js';
// What `skillrl check` asks of a config's Tinker options before anything is built: every problem, by path.
export {
  checkTinkerAgentOptions,
  checkTinkerEditorOptions,
  checkTinkerTrainerOptions,
  TINKER_AGENT_CONFIG_KEYS,
  TINKER_EDITOR_CONFIG_KEYS,
  TINKER_TRAINER_CONFIG_KEYS,
  type TinkerOptionIssue,
} from './policy/check-tinker-options.js';
// The components as a config names them: paths read from the config's folder, the factories it calls.
export { checkTinkerTokenizerFolder, resolveTinkerPaths } from './policy/tinker-config-paths.js';
export {
  createTinkerAgentFromConfig,
  createTinkerEditorTraining,
  createTinkerTrainerFromConfig,
  type TinkerConfigContext,
} from './policy/tinker-from-config.js';
export {
  resolveTrainerOptions,
  TINKER_RL_LOSSES,
  TINKER_TRAINER_OPTION_KEYS,
  type TinkerRlLoss,
  type TinkerTrainerOptions,
  type TinkerUpdateSettings,
} from './policy/trainer-options.js';
// On-policy sampling (temperature 1, no top-p / top-k while trained), and how an update's advantages are shaped.
export {
  assertOnPolicySampling,
  ON_POLICY_REASON,
  offPolicySettings,
  type SamplingSettings,
} from './policy/on-policy-sampling.js';
export { buildUpdate, type UpdateTurn } from './policy/build-update.js';
export { createTinkerChatModel, type TinkerChatModelOptions } from './policy/create-tinker-chat-model.js';
export {
  createTinkerEditorParts,
  TINKER_EDITOR_CREDIT_KEYS,
  type TinkerEditorCreditOptions,
  type TinkerEditorOptions,
  type TinkerTrainedEditor,
  withTinkerTraining,
} from './policy/trainable-editor.js';
// Datums: one sampled turn in Tinker's next-token alignment.
export { type SampledTurn, trajectoryTurns, turnDatum } from './policy/turn-datum.js';
