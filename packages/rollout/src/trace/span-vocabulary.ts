/**
 * The names of the spans skillrl makes and of their attributes. Where the OpenTelemetry semantic conventions
 * name a thing (GenAI: `gen_ai.*`; `server.address`, `error.type`), theirs is used, so Jaeger, Langfuse and
 * other GenAI-aware backends read model calls and tool calls without a mapping; what only skillrl has (the
 * rollout, its skill, its reward) is under `skillrl.*`.
 */
export const SPAN_NAMES = {
  /** One episode (`runEpisode`): reset, decisions, steps, verification. */
  episode: 'skillrl.episode',
  /** One run unit's rollouts (`g2`, `s7`, `v10`, `test`), made by the orchestrator's run session. */
  unit: 'skillrl.unit',
  /** A model call is named `chat <model>` (GenAI: `{gen_ai.operation.name} {gen_ai.request.model}`). */
  modelCallPrefix: 'chat',
  /** A tool call is named `execute_tool <tool>` (GenAI: `execute_tool {gen_ai.tool.name}`). */
  toolCallPrefix: 'execute_tool',
} as const;

/** Attributes of the episode span. The skill's are set only where the episode ran with it (z = 1). */
export const EPISODE_ATTRIBUTES = {
  rolloutId: 'skillrl.rollout.id',
  /** The rollout id's prefix: the run unit (`g2`, `s7`, `v10`, `test`), when the id has one. */
  unit: 'skillrl.unit',
  /** Skill-R1's generation, when the episode belongs to one. */
  generation: 'skillrl.generation',
  taskId: 'skillrl.task.id',
  family: 'skillrl.task.family',
  /** z: 1 with the skill in the prompt, 0 without. */
  condition: 'skillrl.condition',
  skillName: 'skillrl.skill.name',
  skillHash: 'skillrl.skill.hash',
  groupId: 'skillrl.group.id',
  index: 'skillrl.episode.index',
  candidate: 'skillrl.candidate',
  seed: 'skillrl.seed',
  reward: 'skillrl.reward',
  passed: 'skillrl.passed',
  steps: 'skillrl.steps',
  errored: 'skillrl.errored',
  /** `model`, `environment`, `tool` or `verifier` (the trajectory's `error.code`), also as `error.type`. */
  errorCode: 'skillrl.error.code',
  /** The sum of the steps' model latencies (the trajectory's `durationMs`, replayed on a cached rerun). */
  modelLatencyMs: 'skillrl.model_latency_ms',
  inputTokens: 'skillrl.usage.input_tokens',
  outputTokens: 'skillrl.usage.output_tokens',
  cost: 'skillrl.usage.cost',
} as const;

/** Attributes of a model-call span: the GenAI conventions' where they have one. */
export const MODEL_CALL_ATTRIBUTES = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  temperature: 'gen_ai.request.temperature',
  topP: 'gen_ai.request.top_p',
  maxTokens: 'gen_ai.request.max_tokens',
  seed: 'gen_ai.request.seed',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  /** The base URL that answered, without credentials, query or fragment. */
  endpoint: 'skillrl.endpoint',
  /** The call's latency as recorded on the step (a cached reply's is the one replayed). */
  latencyMs: 'skillrl.model_call.latency_ms',
  cached: 'skillrl.model_call.cached',
  /** HTTP attempts made (1 without retries; 0 for a reply from the request cache). */
  attempts: 'skillrl.model_call.attempts',
  cost: 'skillrl.usage.cost',
} as const;

/** Attributes of a tool-call span (a task tool the episode runner executes). */
export const TOOL_CALL_ATTRIBUTES = {
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  latencyMs: 'skillrl.tool.latency_ms',
  errored: 'skillrl.tool.errored',
  errorType: 'error.type',
} as const;
