import { randomUUID } from 'node:crypto';
import { createRng, InvalidArgumentError, redactSecrets, registerSecret } from '@skillrl/core';
import { retryAfterMs } from '@skillrl/rollout';
import { TinkerApiError, TinkerFutureTimeoutError, TinkerRequestFailedError } from './tinker-errors.js';
import type {
  CheckpointsListResponse,
  CreateModelRequest,
  CreateModelResponse,
  CreateSamplingSessionRequest,
  CreateSamplingSessionResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  ForwardBackwardOutput,
  ForwardBackwardRequest,
  ForwardRequest,
  GetInfoResponse,
  GetServerCapabilitiesResponse,
  HealthResponse,
  LoadWeightsRequest,
  LoadWeightsResponse,
  OptimStepRequest,
  OptimStepResponse,
  RequestFailedResponse,
  SampleRequest,
  SampleResponse,
  SaveWeightsForSamplerRequest,
  SaveWeightsForSamplerResponse,
  SaveWeightsRequest,
  SaveWeightsResponse,
  TrainingRun,
  UntypedAPIFuture,
} from './tinker-types.js';

/** The SDK's default service (src/tinker/_client.py), used when neither `baseURL` nor `TINKER_BASE_URL` is set. */
export const TINKER_DEFAULT_BASE_URL = 'https://tinker.thinkingmachines.dev/services/tinker-prod';
/** The SDK's variable for the key (src/tinker/lib/_auth_token_provider.py). */
export const TINKER_API_KEY_ENV = 'TINKER_API_KEY';

export interface TinkerRetryOptions {
  /** Retries after the first attempt of an HTTP call. Default 6. */
  maxRetries?: number;
  /** Backoff before retry k is drawn from [d/2, d], d = min(maxDelayMs, baseDelayMs·2^k). Default 500 (the SDK's). */
  baseDelayMs?: number;
  /** Default 10 000 (the SDK's). */
  maxDelayMs?: number;
  /** A server's `retry-after(-ms)` longer than this is ignored in favour of the backoff. Default 60 000. */
  maxRetryAfterMs?: number;
}

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
  onRetry?: (event: { route: string; retry: number; delayMs: number; error: string }) => void;
}

export interface TinkerClientStats {
  requests: number;
  retries: number;
  polls: number;
  tryAgain: number;
  resubmits: number;
  failures: number;
}

/** A request the server answered with a `request_id`; `result()` polls `retrieve_future` until it is done. */
export interface TinkerFuture<T> {
  readonly requestId: string;
  readonly route: string;
  result(options?: { signal?: AbortSignal }): Promise<T>;
}

interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Retries of this call (default the client's). */
  maxRetries?: number;
  headers?: Record<string, string>;
}

class Expired extends Error {}

interface HttpAnswer {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

function detailOf(answer: HttpAnswer): string {
  const body = answer.json as { detail?: unknown; error?: unknown; message?: unknown } | undefined;
  const detail = body?.detail ?? body?.error ?? body?.message;
  if (typeof detail === 'string') return detail;
  if (detail !== undefined) return JSON.stringify(detail).slice(0, 300);
  return answer.text.slice(0, 300);
}

/** The SDK's rule (src/tinker/_base_client.py `_should_retry`): the server's `x-should-retry`, else 408/409/429/5xx. */
function shouldRetry(answer: HttpAnswer): boolean {
  const header = answer.headers.get('x-should-retry');
  if (header === 'true') return true;
  if (header === 'false') return false;
  const s = answer.status;
  return s === 408 || s === 409 || s === 429 || s >= 500;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

function positive(name: string, value: number | undefined, fallback: number, integer = false): number {
  const v = value ?? fallback;
  if (!(Number.isFinite(v) && v >= 0) || (integer && !Number.isInteger(v))) {
    throw new InvalidArgumentError(
      name,
      `expected ${integer ? 'an integer' : 'a number'} >= 0, got ${value}`,
    );
  }
  return v;
}

/**
 * A typed client of the Tinker HTTP API, as the Python SDK speaks it (routes from
 * src/tinker/resources/{service,models,training,weights,sampling,futures}.py of thinking-machines-lab/tinker;
 * also what NovaSky-AI/SkyRL's skyrl-tx serves, tx/tinker/api.py). One place for the transport: the API key
 * from an environment variable as `X-API-Key`, redacted from every error; retries with seeded equal-jitter
 * backoff on 408/409/429/5xx and connection errors, honouring `retry-after-ms`/`Retry-After` and
 * `x-should-retry`; a timeout per call; an `X-Idempotency-Key` per request, the same on every retry of it (so a
 * retried `forward_backward` whose first answer was lost is not applied twice); and futures polled with
 * `retrieve_future` the way src/tinker/lib/api_future_impl.py does (`try_again`, 408/5xx polled again, 429
 * and connection errors backed off, a bare 400 retried three times, 410 resubmitting the request, a
 * `RequestFailedResponse` thrown as `TinkerRequestFailedError`).
 */
export function createTinkerClient(options: TinkerClientOptions = {}) {
  const baseURL = (options.baseURL ?? process.env.TINKER_BASE_URL ?? TINKER_DEFAULT_BASE_URL).replace(
    /\/+$/,
    '',
  );
  try {
    const url = new URL(baseURL);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new InvalidArgumentError('baseURL', `expected an http(s) URL, got "${redactSecrets(baseURL)}"`);
  }
  const keyEnv = options.apiKeyEnv ?? TINKER_API_KEY_ENV;
  if (typeof keyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) {
    throw new InvalidArgumentError(
      'apiKeyEnv',
      `expected an environment variable's name, got ${JSON.stringify(keyEnv)}`,
    );
  }
  const apiKey = process.env[keyEnv];
  if (apiKey) registerSecret(apiKey);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 60_000);
  const retry = {
    maxRetries: positive('retry.maxRetries', options.retry?.maxRetries, 6, true),
    baseDelayMs: positive('retry.baseDelayMs', options.retry?.baseDelayMs, 500),
    maxDelayMs: positive('retry.maxDelayMs', options.retry?.maxDelayMs, 10_000),
    maxRetryAfterMs: positive('retry.maxRetryAfterMs', options.retry?.maxRetryAfterMs, 60_000),
  };
  const futures = {
    pollIntervalMs: positive('futures.pollIntervalMs', options.futures?.pollIntervalMs, 50),
    timeoutMs: positive('futures.timeoutMs', options.futures?.timeoutMs, 1_800_000),
    requestTimeoutMs: positive('futures.requestTimeoutMs', options.futures?.requestTimeoutMs, 45_000),
    maxResubmits: positive('futures.maxResubmits', options.futures?.maxResubmits, 3, true),
  };
  const doFetch = options.fetch ?? globalThis.fetch;
  const jitter = createRng(options.seed ?? 0).fork('tinker-client');
  const stats: TinkerClientStats = {
    requests: 0,
    retries: 0,
    polls: 0,
    tryAgain: 0,
    resubmits: 0,
    failures: 0,
  };

  const backoff = (attempt: number) => {
    const cap = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
    return cap / 2 + jitter.float() * (cap / 2);
  };

  /** One HTTP exchange; throws only for transport failures (no answer), which the callers retry. */
  async function exchange(
    method: 'GET' | 'POST',
    route: string,
    body: unknown,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    timeout: number,
  ): Promise<HttpAnswer> {
    stats.requests += 1;
    const timer = AbortSignal.timeout(timeout);
    const combined = signal ? AbortSignal.any([signal, timer]) : timer;
    const response = await doFetch(`${baseURL}/api/v1/${route}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(apiKey ? { 'X-API-Key': apiKey } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: combined,
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  }

  const describe = (error: unknown) =>
    error instanceof Error
      ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error);

  /** A call with the client's retries: the same idempotency key on every attempt of a POST. */
  async function call<T>(
    method: 'GET' | 'POST',
    route: string,
    body?: unknown,
    opts: CallOptions = {},
  ): Promise<T> {
    const maxRetries = opts.maxRetries ?? retry.maxRetries;
    const headers: Record<string, string> = { ...opts.headers };
    if (method === 'POST') headers['X-Idempotency-Key'] = `skillrl-${randomUUID()}`;
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      let answer: HttpAnswer | undefined;
      let failure: string;
      let wait: number | undefined;
      try {
        answer = await exchange(
          method,
          route,
          body,
          { ...headers, 'X-Skillrl-Retry-Count': String(attempt) },
          opts.signal,
          opts.timeoutMs ?? timeoutMs,
        );
      } catch (error) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        failure = describe(error);
        answer = undefined;
      }
      if (answer) {
        const ok = answer.status >= 200 && answer.status < 300;
        if (ok && (answer.json !== undefined || answer.text === '')) return answer.json as T;
        const retryable = ok ? true : shouldRetry(answer);
        failure = ok
          ? `the body is not JSON: ${answer.text.slice(0, 200)}`
          : `status ${answer.status}: ${detailOf(answer)}`;
        if (!retryable) {
          stats.failures += 1;
          throw new TinkerApiError(
            `${method} /api/v1/${route} failed (not retryable): ${failure} [${baseURL}]`,
            {
              route,
              status: answer.status,
              attempts: attempt + 1,
              retryable: false,
            },
          );
        }
        const asked = retryAfterMs({ headers: answer.headers });
        if (asked !== undefined && asked <= retry.maxRetryAfterMs) wait = asked;
      } else failure ??= 'no answer';
      if (attempt >= maxRetries) {
        stats.failures += 1;
        throw new TinkerApiError(
          `${method} /api/v1/${route} failed (gave up after ${attempt + 1} attempts): ${failure} [${baseURL}]`,
          {
            route,
            attempts: attempt + 1,
            retryable: true,
            ...(answer ? { status: answer.status } : {}),
          },
        );
      }
      const delayMs = wait ?? backoff(attempt);
      stats.retries += 1;
      options.onRetry?.({ route, retry: attempt + 1, delayMs, error: redactSecrets(failure) });
      await sleep(delayMs, opts.signal);
    }
  }

  /** Polls one future until it is done (the loop of api_future_impl.py `_result_async`). */
  async function poll<T>(requestId: string, route: string, signal?: AbortSignal): Promise<T> {
    const started = Date.now();
    let badRequests = 0;
    let connectionErrors = 0;
    for (let iteration = 0; ; iteration++) {
      if (signal?.aborted) throw signal.reason;
      const waited = Date.now() - started;
      if (waited > futures.timeoutMs) {
        stats.failures += 1;
        throw new TinkerFutureTimeoutError(
          `the ${route} request ${requestId} was still queued after ${Math.round(waited / 1000)} s (futures.timeoutMs ${futures.timeoutMs}) [${baseURL}]`,
          { requestId, route, waitedMs: waited },
        );
      }
      stats.polls += 1;
      let answer: HttpAnswer;
      try {
        answer = await exchange(
          'POST',
          'retrieve_future',
          { request_id: requestId, allow_metadata_only: false },
          { 'X-Tinker-Request-Iteration': String(iteration), 'X-Tinker-Request-Type': route },
          signal,
          futures.requestTimeoutMs,
        );
      } catch (_error) {
        if (signal?.aborted) throw signal.reason;
        // No answer at all: back off, as the SDK does for connection errors.
        await sleep(Math.min(retry.maxDelayMs, backoff(connectionErrors++)), signal);
        continue;
      }
      if (answer.status === 200) {
        connectionErrors = 0;
        const json = answer.json as Record<string, unknown> | undefined;
        if (json === undefined) {
          await sleep(futures.pollIntervalMs, signal);
          continue;
        }
        if (json.type === 'try_again') {
          stats.tryAgain += 1;
          await sleep(futures.pollIntervalMs, signal);
          continue;
        }
        if (typeof json.error === 'string') {
          const failed = json as unknown as RequestFailedResponse;
          stats.failures += 1;
          throw new TinkerRequestFailedError(
            `the ${route} request ${requestId} failed (${failed.category ?? 'unknown'}): ${failed.error} [${baseURL}]`,
            { requestId, route, category: String(failed.category ?? 'unknown') },
          );
        }
        return json as T;
      }
      if (answer.status === 410) throw new Expired(`promise ${requestId} expired`);
      if (answer.status === 408 || answer.status >= 500) {
        await sleep(futures.pollIntervalMs, signal);
        continue;
      }
      if (answer.status === 429) {
        const asked = retryAfterMs({ headers: answer.headers });
        await sleep(
          asked !== undefined && asked <= retry.maxRetryAfterMs ? asked : backoff(connectionErrors++),
          signal,
        );
        continue;
      }
      // A bare 400 may come from a proxy on the way: tried three more times (skyrl-tx answers a failed
      // future with 400 and its reason, which is what the error then says).
      if (answer.status === 400 && badRequests < 3) {
        badRequests += 1;
        await sleep(futures.pollIntervalMs, signal);
        continue;
      }
      stats.failures += 1;
      throw new TinkerApiError(
        `retrieving the ${route} request ${requestId} failed: status ${answer.status}: ${detailOf(answer)} [${baseURL}]`,
        { route: 'retrieve_future', status: answer.status, attempts: iteration + 1, retryable: false },
      );
    }
  }

  /** Sends a request that answers with a future, and returns the future. */
  async function submit<T>(route: string, body: unknown, opts: CallOptions = {}): Promise<TinkerFuture<T>> {
    const first = await call<UntypedAPIFuture>('POST', route, body, opts);
    let current = first;
    return {
      get requestId() {
        return current.request_id;
      },
      route,
      async result(resultOptions = {}) {
        const signal = resultOptions.signal ?? opts.signal;
        for (let resubmits = 0; ; resubmits++) {
          if (typeof current?.request_id !== 'string') {
            throw new TinkerApiError(`POST /api/v1/${route} answered no request_id [${baseURL}]`, {
              route,
              attempts: 1,
              retryable: false,
            });
          }
          try {
            return await poll<T>(current.request_id, route, signal);
          } catch (error) {
            if (!(error instanceof Expired) || resubmits >= futures.maxResubmits) {
              if (error instanceof Expired) {
                throw new TinkerApiError(
                  `the ${route} request expired ${resubmits + 1} times (410) [${baseURL}]`,
                  {
                    route,
                    status: 410,
                    attempts: resubmits + 1,
                    retryable: true,
                  },
                );
              }
              throw error;
            }
            // The promise is gone before the work ran (the SDK's RetryableException): send the request again.
            stats.resubmits += 1;
            current = await call<UntypedAPIFuture>('POST', route, body, {
              ...opts,
              ...(signal ? { signal } : {}),
            });
          }
        }
      },
    };
  }

  const run = async <T>(route: string, body: unknown, signal?: AbortSignal): Promise<T> =>
    (await submit<T>(route, body, signal ? { signal } : {})).result();

  return {
    baseURL,
    /** The variable the key is read from, and whether it was set (the key itself is never exposed). */
    apiKey: { env: keyEnv, set: apiKey !== undefined && apiKey !== '' },
    stats: (): TinkerClientStats => ({ ...stats }),
    call,
    submit,
    /** GET /api/v1/healthz (resources/service.py `health_check`). */
    healthz: (signal?: AbortSignal) =>
      call<HealthResponse>('GET', 'healthz', undefined, signal ? { signal } : {}),
    /** GET /api/v1/get_server_capabilities: the base models served. */
    getServerCapabilities: (signal?: AbortSignal) =>
      call<GetServerCapabilitiesResponse>(
        'GET',
        'get_server_capabilities',
        undefined,
        signal ? { signal } : {},
      ),
    /** POST /api/v1/create_session. */
    createSession: (request: CreateSessionRequest, signal?: AbortSignal) =>
      call<CreateSessionResponse>(
        'POST',
        'create_session',
        { type: 'create_session', ...request },
        signal ? { signal } : {},
      ),
    /** POST /api/v1/session_heartbeat (the SDK sends one every 10 s, with no retries). */
    sessionHeartbeat: (sessionId: string, signal?: AbortSignal) =>
      call<{ type?: string }>(
        'POST',
        'session_heartbeat',
        { session_id: sessionId, type: 'session_heartbeat' },
        { maxRetries: 0, timeoutMs: 10_000, ...(signal ? { signal } : {}) },
      ),
    /** POST /api/v1/create_sampling_session. */
    createSamplingSession: (request: CreateSamplingSessionRequest, signal?: AbortSignal) =>
      call<CreateSamplingSessionResponse>(
        'POST',
        'create_sampling_session',
        { type: 'create_sampling_session', ...request },
        signal ? { signal } : {},
      ),
    /** POST /api/v1/create_model (a LoRA training client), then its future. */
    createModel: (request: CreateModelRequest, signal?: AbortSignal) =>
      run<CreateModelResponse>('create_model', { type: 'create_model', ...request }, signal),
    /** POST /api/v1/get_info. */
    getInfo: (modelId: string, signal?: AbortSignal) =>
      call<GetInfoResponse>(
        'POST',
        'get_info',
        { model_id: modelId, type: 'get_info' },
        signal ? { signal } : {},
      ),
    /** POST /api/v1/unload_model, then its future. */
    unloadModel: (modelId: string, signal?: AbortSignal) =>
      run<{ model_id?: string }>('unload_model', { model_id: modelId, type: 'unload_model' }, signal),
    /** POST /api/v1/forward_backward (the SDK's JSON body), then its future. */
    forwardBackward: (request: ForwardBackwardRequest, signal?: AbortSignal) =>
      run<ForwardBackwardOutput>('forward_backward', request, signal),
    /** POST /api/v1/forward, then its future: the loss and log-probs without gradients. */
    forward: (request: ForwardRequest, signal?: AbortSignal) =>
      run<ForwardBackwardOutput>('forward', request, signal),
    /** POST /api/v1/optim_step, then its future. */
    optimStep: (request: OptimStepRequest, signal?: AbortSignal) =>
      run<OptimStepResponse>('optim_step', { type: 'optim_step', ...request }, signal),
    /** POST /api/v1/save_weights (a resumable checkpoint: weights and optimizer state), then its future. */
    saveWeights: (request: SaveWeightsRequest, signal?: AbortSignal) =>
      run<SaveWeightsResponse>('save_weights', { type: 'save_weights', ...request }, signal),
    /** POST /api/v1/save_weights_for_sampler (weights a sampler can load), then its future. */
    saveWeightsForSampler: (request: SaveWeightsForSamplerRequest, signal?: AbortSignal) =>
      run<SaveWeightsForSamplerResponse>(
        'save_weights_for_sampler',
        { type: 'save_weights_for_sampler', ...request },
        signal,
      ),
    /** POST /api/v1/load_weights (with `optimizer: true`, Adam's moments too), then its future. */
    loadWeights: (request: LoadWeightsRequest, signal?: AbortSignal) =>
      run<LoadWeightsResponse>('load_weights', { type: 'load_weights', ...request }, signal),
    /** POST /api/v1/asample, then its future. */
    sample: (request: SampleRequest, signal?: AbortSignal) =>
      run<SampleResponse>('asample', { type: 'sample', ...request }, signal),
    /** GET /api/v1/training_runs/{id} (rest_client.py). */
    getTrainingRun: (trainingRunId: string, signal?: AbortSignal) =>
      call<TrainingRun>(
        'GET',
        `training_runs/${encodeURIComponent(trainingRunId)}`,
        undefined,
        signal ? { signal } : {},
      ),
    /** GET /api/v1/training_runs/{id}/checkpoints (resources/weights.py `list`). */
    listCheckpoints: (trainingRunId: string, signal?: AbortSignal) =>
      call<CheckpointsListResponse>(
        'GET',
        `training_runs/${encodeURIComponent(trainingRunId)}/checkpoints`,
        undefined,
        signal ? { signal } : {},
      ),
  };
}

export type TinkerClient = ReturnType<typeof createTinkerClient>;
