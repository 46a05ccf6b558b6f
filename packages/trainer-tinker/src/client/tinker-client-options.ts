import type { TinkerRetryOptions } from './retry-policy.js';

/** The SDK's default service (src/tinker/_client.py), used when neither `baseURL` nor `TINKER_BASE_URL` is set. */
export const TINKER_DEFAULT_BASE_URL = 'https://tinker.thinkingmachines.dev/services/tinker-prod';
/** The SDK's variable for the key (src/tinker/lib/_auth_token_provider.py). */
export const TINKER_API_KEY_ENV = 'TINKER_API_KEY';

/** The wire format `forward_backward` and `forward` speak: the SDK 0.25's protobuf, or the older JSON. */
export type TinkerWireFormat = 'json' | 'protobuf';

export interface TinkerFutureOptions {
  /** Wait between polls of a future answered `try_again`. Default 50 ms (servers may also hold a poll open). */
  pollIntervalMs?: number;
  /** Give up on a future after this long. Default 1 800 000 (30 minutes). */
  timeoutMs?: number;
  /** Timeout of one `retrieve_future` call. Default 45 000 (the SDK's). */
  requestTimeoutMs?: number;
  /** Times an expired future's request (410) is sent again. Default 3. */
  maxResubmits?: number;
}

export interface TinkerClientOptions {
  /** The service; `routes are under /api/v1`. Default `TINKER_BASE_URL`, else Tinker's hosted service. */
  baseURL?: string;
  /**
   * The environment variable holding the API key (sent as `X-API-Key`, registered for redaction). Default
   * `TINKER_API_KEY`. Unset: no key is sent (a self-hosted skyrl-tx needs none; the hosted service answers 401).
   */
  apiKeyEnv?: string;
  /** Timeout of one HTTP call, in milliseconds. Default 60 000 (the SDK's). */
  timeoutMs?: number;
  retry?: TinkerRetryOptions;
  futures?: TinkerFutureOptions;
  /** Seeds the retry jitter. Default 0. */
  seed?: number;
  /** Another transport (tests); default the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Ends every wait of the client (retries, backpressure, billing pauses, futures): the run's own deadline or
   * cancel. Each call's `signal` does the same for that call.
   */
  signal?: AbortSignal;
  /**
   * The wire format of `forward_backward` / `forward` and their results: `protobuf` (the SDK 0.25's, from its
   * own descriptor: `application/x-protobuf` bodies, results asked for as protobuf), `json` (the older SDKs'
   * and skyrl-tx's), or `auto` (protobuf, falling back to JSON for good when the server refuses a protobuf
   * body with 415, 422, or a 400 about the body's format). `get_server_capabilities` does not say which a
   * server reads, so the default is `auto` for Tinker's hosted service and `json` for any other URL.
   */
  wire?: TinkerWireFormat | 'auto';
  /**
   * Sample through a sampling session per sampler checkpoint (`create_sampling_session`), as the SDK does.
   * Default true. A server without the route (404) falls back to `model_path` / `base_model` in `asample`.
   */
  samplingSessions?: boolean;
  /**
   * Told of every wait before a call is tried again, and why: `retry` (the retry phase), `outage` (the
   * time-bounded phase after it), `billing` (a 402: the server's reason is in `error`), `backpressure` (a
   * 429 on sampling). Without it, billing pauses are written to stderr (at most once a minute).
   */
  onRetry?: (event: TinkerRetryEvent) => void;
}

export interface TinkerRetryEvent {
  route: string;
  retry: number;
  delayMs: number;
  error: string;
  reason: 'retry' | 'outage' | 'billing' | 'backpressure';
}

export interface TinkerClientStats {
  requests: number;
  retries: number;
  polls: number;
  tryAgain: number;
  resubmits: number;
  failures: number;
  /** Waits on 402 (billing) answers. */
  billingPauses: number;
  /** Waits on 429 answers to `asample` (backpressure). */
  backpressure: number;
  /** `create_sampling_session` calls. */
  samplingSessions: number;
  /** Times `wire: 'auto'` fell back from protobuf to JSON (0 or 1). */
  wireFallbacks: number;
}
