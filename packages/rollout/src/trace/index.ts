export { type EndpointAttributes, endpointAttributes } from './endpoint-attributes.js';
export { type EpisodeIdentity, episodeAttributes, traceEpisode, traceUnrunEpisode } from './episode-span.js';
export { type ModelCallNote, spanErrorMessage, traceModelCall } from './model-call-span.js';
export { ROLLOUT_TRACER_NAME, rolloutTracer } from './rollout-tracer.js';
export {
  EPISODE_ATTRIBUTES,
  MODEL_CALL_ATTRIBUTES,
  SPAN_NAMES,
  TOOL_CALL_ATTRIBUTES,
} from './span-vocabulary.js';
export { executeTool } from './tool-call-span.js';
