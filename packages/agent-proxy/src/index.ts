/**
 * @skillrl/agent-proxy — any program as skillrl's task model. A recording OpenAI-compatible proxy stands in
 * front of the configured endpoint: each episode gets its own token (the program's OPENAI_API_KEY), the
 * skill goes into the system message only when the episode runs with it (z = 1), streams and tool calls
 * pass through untouched, and every call is recorded as the episode's trajectory.
 */

// The recording proxy: start it, open an episode per program run, take the calls it recorded.
export {
  type ProxyEpisode,
  type ProxyEpisodeFailure,
  type ProxyStats,
  type ProxyUpstreamOptions,
  type RecordedCall,
  type RecordedCallReply,
  type RecordedCallRequest,
  type RecordedToolCall,
  type RecordingProxy,
  type RecordingProxyOptions,
  startRecordingProxy,
} from './proxy/index.js';
// How the skill is injected (the default template is rollout's DEFAULT_SKILL_TEMPLATE).
export { defaultSkillTemplate, injectSkill } from './proxy/index.js';
// Recording helpers, usable on calls recorded elsewhere: a completion's and a stream's record.
export { type CompletionRecord, recordCompletion, StreamRecorder } from './proxy/index.js';
// Errors: an upstream attempt that failed (typed, recognisable across copies with isInstance).
export { ProxyUpstreamError } from './proxy/index.js';

// The program agent (src/program): exported by the lead.
export {
  createProgramAgent,
  type ProgramAgent,
  type ProgramAgentOptions,
  type ProgramAgentStats,
  type ProgramFunction,
  type ProgramRunContext,
} from './program/create-program-agent.js';
export { ProgramError, type ProgramErrorKind } from './program/program-error.js';
export { type ProgramCallRecord, programCallsOf } from './program/program-calls.js';
export { readStdoutAnswer, type StdoutAnswer } from './program/read-answer.js';
export {
  checkProgramAgentOptions,
  PROGRAM_AGENT_OPTIONS,
  PROGRAM_UPSTREAM_OPTIONS,
  type ProgramOptionIssue,
  probeProgramAgent,
  upstreamGivesTokens,
} from './program/check-program-options.js';
export { checkProgramAgentFiles } from './program/check-program-files.js';
// The program agent as a config names it (`agent: { program }`): cwd and the module form read from the
// config's folder, the upstream's key from the variable apiKeyEnv names.
export {
  createProgramAgentFromConfig,
  type ProgramConfigContext,
  programAgentOptionsFromConfig,
  probeProgramAgentFromConfig,
} from './program/program-options-from-config.js';
