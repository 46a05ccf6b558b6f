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
export {
  createTinkerClient,
  TINKER_API_KEY_ENV,
  TINKER_DEFAULT_BASE_URL,
  type TinkerClient,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerFuture,
  type TinkerFutureOptions,
  type TinkerRetryEvent,
} from './create-tinker-client.js';
export { resolveRetryPolicy, type TinkerRetryOptions } from './retry-policy.js';
export { TinkerApiError, TinkerFutureTimeoutError, TinkerRequestFailedError } from './tinker-errors.js';
export {
  openTinkerSession,
  SKILLRL_TINKER_CLIENT_VERSION,
  type TinkerSession,
  type TinkerSessionOptions,
} from './tinker-session.js';
export * from './tinker-types.js';
export { verifyModelTokenizer } from './verify-model-tokenizer.js';
