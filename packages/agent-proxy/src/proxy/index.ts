export { type CompletionRecord, recordCompletion, usageOf } from './completion-record.js';
export { type OpenAIErrorBody, openAIErrorBody } from './openai-error-body.js';
export {
  checkRecordingProxyOptions,
  type ProxyUpstreamOptions,
  type RecordingProxyOptions,
} from './proxy-options.js';
export type {
  RecordedCall,
  RecordedCallReply,
  RecordedCallRequest,
  RecordedToolCall,
} from './recorded-call.js';
export type { ProxyEpisode, ProxyEpisodeFailure, ProxyStats, RecordingProxy } from './recording-proxy.js';
export { defaultSkillTemplate, injectSkill } from './skill-injection.js';
export { startRecordingProxy } from './start-recording-proxy.js';
export { StreamRecorder } from './stream-recorder.js';
export { ProxyUpstreamError } from './upstream-error.js';
