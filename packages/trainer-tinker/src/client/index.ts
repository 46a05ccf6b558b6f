export {
  createTinkerClient,
  TINKER_API_KEY_ENV,
  TINKER_DEFAULT_BASE_URL,
  type TinkerClient,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerFuture,
  type TinkerFutureOptions,
  type TinkerRetryOptions,
} from './create-tinker-client.js';
export { TinkerApiError, TinkerFutureTimeoutError, TinkerRequestFailedError } from './tinker-errors.js';
export {
  openTinkerSession,
  SKILLRL_TINKER_CLIENT_VERSION,
  type TinkerSession,
  type TinkerSessionOptions,
} from './tinker-session.js';
export * from './tinker-types.js';
