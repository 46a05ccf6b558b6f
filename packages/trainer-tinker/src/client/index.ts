// The tokenizer checked against the model's `tokenizer_id` (from `get_info`).
export { checkTokenizer, TinkerTokenizerMismatchError } from '../tokenizer/check-tokenizer.js';
export { NPM_TOKENIZERS } from '../tokenizer/load-chat-tokenizer.js';
export {
  checkFiniteInputs,
  chunkData,
  datumBytes,
  TINKER_MAX_CHUNK_BYTES,
  TINKER_MAX_CHUNK_DATA,
} from './chunk-data.js';
// The client: one interface per resource of the SDK, over one transport (retries, timeouts, idempotency, redaction).
export { createTinkerClient } from './create-tinker-client.js';
export type {
  ForwardBackwardChunk,
  ForwardBackwardChunksOptions,
  ForwardBackwardChunksRequest,
  ForwardBackwardChunksResponse,
  TinkerFuture,
  TinkerFuturesResource,
  TinkerModelsResource,
  TinkerSamplingResource,
  TinkerServiceResource,
  TinkerSubmitOptions,
  TinkerTrainingResource,
  TinkerWeightsResource,
} from './resources/index.js';
export { resolveRetryPolicy, type TinkerRetryOptions } from './retry-policy.js';
export type { TinkerClient } from './tinker-client.js';
export * from './tinker-client-options.js';
export { TinkerApiError, TinkerFutureTimeoutError, TinkerRequestFailedError } from './tinker-errors.js';
export {
  openTinkerSession,
  SKILLRL_TINKER_CLIENT_VERSION,
  type TinkerSession,
  type TinkerSessionClient,
  type TinkerSessionOptions,
} from './tinker-session.js';
export type { TinkerApiKeyStatus, TinkerHttpMethod, TinkerRequestOptions } from './tinker-transport.js';
export * from './tinker-types.js';
export { verifyModelTokenizer } from './verify-model-tokenizer.js';
