/**
 * @skillrl/rollout — LLM agents over any OpenAI-compatible endpoint, the episode loop, and batches of
 * rollouts with the group and with/without-skill structure the estimators need.
 */

// The OpenAI-compatible agent: text or tool-calling mode, load-balanced endpoints, log-probs.
export { createHttpFetch, type HttpFetch, type HttpFetchOptions } from './agent/http-fetch.js';
// Pieces a recording proxy in front of the endpoints reuses (@skillrl/agent-proxy): the least-in-flight pool
// of equivalent endpoints and the token ids / log-probs of a completion choice.
export { createEndpointPool, type Endpoint, type EndpointPool } from './agent/endpoint-pool.js';
export { extractTokens, type TokenData } from './agent/extract-tokens.js';
export { ACT_TOOL, buildTools, type DecodedToolCall, decodeToolCall } from './agent/action-tools.js';
export {
  createOpenAIAgent,
  type OpenAIAgent,
  type OpenAIAgentOptions,
  type OpenAIAgentStats,
} from './agent/create-openai-agent.js';
// The openai agent as a config names it: `model` required, the key read from the variable `apiKeyEnv` names.
export {
  createOpenAIAgentFromConfig,
  type OpenAIAgentConfigContext,
} from './agent/openai-agent-from-config.js';
export {
  type ActionFormat,
  type ActionParser,
  type ActionParserOptions,
  createActionParser,
  type ParsedAction,
} from './agent/parse-action.js';
// What an agent records of each chat turn (core's delta-coded ChatTurnRecord), one comparison per turn.
export { type ChatTurnMemory, createChatTurnMemory } from './agent/chat-turn-memory.js';

// The text-in, text-out chat model (core's ChatModel) for skill editors and judges.
export {
  type ChatSampling,
  choiceSeed,
  createOpenAIChatModel,
  type OpenAIChatModel,
  type OpenAIChatModelOptions,
  type OpenAIChatModelStats,
} from './chat/create-openai-chat-model.js';
export type {
  OpenAIConnectionOptions,
  OpenAIConnectionStats,
} from './connection/create-openai-connection.js';

// Skill injection: the replaceable system-prompt template.
export {
  type AgentMode,
  DEFAULT_FORMAT_INSTRUCTIONS,
  DEFAULT_SKILL_TEMPLATE,
  DEFAULT_SYSTEM_PROMPT,
  renderSkill,
  renderSystemPrompt,
  type SystemPromptInput,
  type SystemPromptTemplate,
  systemPromptInput,
} from './agent/system-prompt.js';
// The chat transcript of one decision: the one renderer of every LLM agent's prompt (this package's openai
// agent, trainer-tinker's Tinker agent). What an agent records of it (`step.info.chat`) is what export writes.
export {
  buildChatTranscript,
  type ChatTranscriptMessage,
  type ChatTranscriptOptions,
} from './agent/build-chat-transcript.js';
// The on-disk request cache (content-addressed by the full request).
export { canonicalJson } from './cache/canonical-json.js';
export { type CachedResponse, createRequestCache, type RequestCache } from './cache/request-cache.js';
// Batches: group / pairing plan fixed by the seed, streamed collection.
export {
  checkRolloutPlan,
  type CollectRolloutsOptions,
  collectRollouts,
  emptyRolloutSummary,
  type PlannedRollouts,
  type RolloutRun,
  type RolloutRunSettings,
  rolloutRun,
  type RolloutSummary,
  type TrajectoryInfo,
} from './collect/collect-rollouts.js';
export { type BatchedAgent, decisionRounds, isBatchedAgent } from './collect/decision-rounds.js';
export {
  type PairingOptions,
  type PlannedEpisode,
  type PlanRolloutsOptions,
  planRollouts,
  type SkillSource,
  withSkillCount,
} from './collect/plan-rollouts.js';

// The episode loop; the spent tool budget of an episode's last decision (no tools, "answer now").
export { type RunEpisodeOptions, runEpisode } from './episode/run-episode.js';
export {
  spentToolBudget,
  type ToolBudget,
  type ToolBudgetContext,
  toolBudgetNotice,
} from './episode/tool-budget.js';
// Option names checked against ours and OpenAI's chat-completion fields, with a did-you-mean.
export {
  checkOpenAIAgentOptions,
  checkOpenAIChatModelOptions,
  checkOptionNames,
  OPENAI_AGENT_OPTIONS,
  OPENAI_CHAT_MODEL_OPTIONS,
  OPENAI_CHAT_PARAMETERS,
  type OptionIssue,
} from './options/check-option-names.js';
// The same as a config gives them (with `apiKeyEnv`), and the key read from the variable it names.
export {
  type ConfigOptionIssue,
  checkOpenAIAgentConfigOptions,
  checkOpenAIChatModelConfigOptions,
  OPENAI_CONFIG_KEYS,
  secretFromEnv,
  withApiKeyFromEnv,
} from './options/openai-config-options.js';
export { UnknownOptionError } from './options/unknown-option-error.js';
// Resilience: retries with backoff and Retry-After, rate limits, the final error.
export { ModelCallError } from './resilience/model-call-error.js';
export { NoChoiceError } from './resilience/no-choice-error.js';
export { createRateLimiter, type RateLimiter, type RateLimitOptions } from './resilience/rate-limiter.js';
// The error budget over a run's calls (rollouts, editor calls): it stops a run whose calls keep failing, in words.
export { type CallError, type EndpointInfo, ErrorBudget } from './resilience/error-budget.js';
export {
  isRetryable,
  type ResolvedRetryOptions,
  type RetryOptions,
  resolveRetryOptions,
  retryAfterMs,
  retryDelay,
} from './resilience/retry-policy.js';
export type { RetryEvent } from './resilience/with-retries.js';

// Usage and cost accounting.
export { addUsage, costOf, type PriceTable } from './usage/price-table.js';

// Traces through @opentelemetry/api (no-ops until an application registers an SDK): the span and attribute
// names of episodes, model calls and tool calls, an episode span's attributes from its trajectory, and an
// error's message as a span may hold it (secrets and URL credentials redacted).
export {
  EPISODE_ATTRIBUTES,
  episodeAttributes,
  MODEL_CALL_ATTRIBUTES,
  ROLLOUT_TRACER_NAME,
  SPAN_NAMES,
  spanErrorMessage,
  TOOL_CALL_ATTRIBUTES,
} from './trace/index.js';
