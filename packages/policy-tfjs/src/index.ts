/**
 * @skillrl/policy-tfjs — a small agent for text environments with admissible actions that reads skills
 * from its first step, and the in-process tfjs trainer that teaches it to do without them.
 */

// The option vocabularies and checks of the agent and the trainer (also on `@skillrl/policy-tfjs/options`,
// which loads no tfjs).
export * from './entries/options.js';
// The agent (core `Agent`), its checkpoints, and the admissible-template expansion it uses.
export {
  type ActionDistribution,
  createSkillReadingAgent,
  type SkillReadingAgent,
  type SkillReadingAgentOptions,
} from './agent/create-skill-reading-agent.js';
export { createSkillReadingAgentFromConfig } from './agent/skill-reading-agent-from-config.js';
export {
  CHECKPOINT_FORMAT,
  type CheckpointManifest,
  type LoadAgentOptions,
  loadSkillReadingAgent,
  saveSkillReadingAgent,
} from './agent/checkpoint.js';
export { expandTemplates } from './agent/expand-templates.js';
// The network: config, weights, the per-decision record (and its stored form on trajectories), both
// forward passes.
export { type AgentConfig, DEFAULT_AGENT_CONFIG, FEATURE_COUNT } from './model/agent-config.js';
export {
  type DecisionRecord,
  decodeDecisionRecord,
  isDecisionRecord,
  isStoredDecisionRecord,
  type StoredDecisionRecord,
} from './model/decision-record.js';
export { type AgentParameters, initParameters, PARAMETER_NAMES } from './model/parameters.js';
export { type PackedBatch, packBatch } from './model/pack-batch.js';
export { scoreDecision } from './model/score-decision.js';
export { createTfPolicy, type TfPolicy } from './model/tf-policy.js';
// Reading a skill: steps, clauses, goal bindings.
export { goalBindings } from './skill/goal-bindings.js';
export { type GoalBindings, type SkillClause, skillClauses, skillSteps } from './skill/skill-clauses.js';
// Words: tokenizer and vocabularies (environment words + hash buckets).
export { isContentWord, tokenize } from './text/tokenize.js';
export {
  createVocabulary,
  type Vocabulary,
  type VocabularyJson,
  vocabularyFromJson,
  vocabularyFromTexts,
} from './text/vocabulary.js';
export { type VocabularyFromAdapterOptions, vocabularyFromAdapter } from './text/vocabulary-from-adapter.js';
// Training: the core `PolicyTrainer` on tensor-ops' policy-gradient step.
export {
  createTfjsTrainer,
  type TfjsTrainBatch,
  type TfjsTrainer,
  type TfjsTrainerOptions,
} from './train/create-tfjs-trainer.js';
export {
  checkLearningRateSchedule,
  type LearningRateSchedule,
  learningRateAt,
} from './train/learning-rate-schedule.js';
export { createTfjsTrainerFromConfig } from './train/tfjs-trainer-from-config.js';
