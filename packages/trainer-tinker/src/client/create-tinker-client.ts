import { randomUUID } from 'node:crypto';
import { createRng, InvalidArgumentError, redactSecrets, registerSecret } from '@skillrl/core';
import { retryAfterMs } from '@skillrl/rollout';
import { checkFiniteInputs, chunkData, TINKER_MAX_CHUNK_BYTES, TINKER_MAX_CHUNK_DATA } from './chunk-data.js';
import {
  decodeForwardBackwardOutput,
  encodeForwardBackwardRequest,
  PROTOBUF_CONTENT_TYPE,
} from './protobuf-wire.js';
import {
  outageDelayMs,
  type ResolvedRetryPolicy,
  resolveRetryPolicy,
  retryDelayMs,
  SAMPLING_LARGE_PROMPT_BYTES,
  type TinkerRetryOptions,
} from './retry-policy.js';
import { TinkerApiError, TinkerFutureTimeoutError, TinkerRequestFailedError } from './tinker-errors.js';
import { openTinkerSession, type TinkerSession } from './tinker-session.js';
import type {
  CheckpointsListResponse,
  CreateModelRequest,
  CreateModelResponse,
  CreateSamplingSessionRequest,
  CreateSamplingSessionResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  Datum,
  ForwardBackwardInput,
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
  wire?: 'json' | 'protobuf' | 'auto';
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
  /** A 429 is backpressure (sampling): waited out without a count limit. */
  backpressure?: { promptBytes: number };
}

class Expired extends Error {}

/** A body serialized already (the chunks of `forwardBackwardChunks`: each datum's JSON is made once). */
class JsonText {
  constructor(readonly text: string) {}
}

interface HttpAnswer {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
  /** A protobuf body (`content-type: application/x-protobuf`). */
  bytes?: Uint8Array;
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
  const retry: ResolvedRetryPolicy = resolveRetryPolicy(options.retry);
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
    billingPauses: 0,
    backpressure: 0,
    samplingSessions: 0,
    wireFallbacks: 0,
  };
  const wire = options.wire ?? (baseURL === TINKER_DEFAULT_BASE_URL ? 'auto' : 'json');
  if (wire !== 'json' && wire !== 'protobuf' && wire !== 'auto') {
    throw new InvalidArgumentError(
      'wire',
      `expected "json", "protobuf" or "auto", got ${JSON.stringify(wire)}`,
    );
  }
  let protobuf = wire !== 'json';

  const backoff = (attempt: number) => retryDelayMs(retry, attempt, jitter.float());
  const scaled = (ms: number) => ms * retry.timeScale;
  const signalOf = (signal?: AbortSignal) =>
    signal && options.signal ? AbortSignal.any([signal, options.signal]) : (signal ?? options.signal);
  let lastBillingLog = Number.NEGATIVE_INFINITY;
  const report = (event: TinkerRetryEvent) => {
    const safe = { ...event, error: redactSecrets(event.error) };
    if (options.onRetry) options.onRetry(safe);
    else if (event.reason === 'billing' && Date.now() - lastBillingLog > 60_000) {
      lastBillingLog = Date.now();
      process.stderr.write(
        `[skillrl tinker] ${event.route} is paused by the service's billing status (402), trying again every ${Math.round(event.delayMs)} ms for up to ${retry.billingPauseMs * retry.timeScale} ms in all: ${safe.error}\n`,
      );
    }
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
    const binary = body instanceof Uint8Array;
    const response = await doFetch(`${baseURL}/api/v1/${route}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined
          ? {}
          : { 'content-type': binary ? PROTOBUF_CONTENT_TYPE : 'application/json' }),
        ...(apiKey ? { 'X-API-Key': apiKey } : {}),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : { body: binary ? body : body instanceof JsonText ? body.text : JSON.stringify(body) }),
      signal: combined,
    });
    if ((response.headers.get('content-type') ?? '').includes(PROTOBUF_CONTENT_TYPE)) {
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, json: undefined, text: '', bytes };
    }
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

  /**
   * A call with the client's retries: the same idempotency key on every attempt of a POST; `maxRetries`
   * retries, then the outage phase until `outageMs` from the first attempt; 402 paused for up to
   * `billingPauseMs`; with `backpressure`, a 429 waited out with no count limit.
   */
  async function call<T>(
    method: 'GET' | 'POST',
    route: string,
    body?: unknown,
    opts: CallOptions = {},
  ): Promise<T> {
    const maxRetries = opts.maxRetries ?? retry.maxRetries;
    const signal = signalOf(opts.signal);
    const headers: Record<string, string> = { ...opts.headers };
    if (method === 'POST') headers['X-Idempotency-Key'] = `skillrl-${randomUUID()}`;
    const started = Date.now();
    let billingSince: number | undefined;
    let retries = 0;
    let outageTries = 0;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw signal.reason;
      let answer: HttpAnswer | undefined;
      let failure: string;
      let wait: number | undefined;
      try {
        answer = await exchange(
          method,
          route,
          body,
          { ...headers, 'X-Skillrl-Retry-Count': String(attempt) },
          signal,
          opts.timeoutMs ?? timeoutMs,
        );
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        failure = describe(error);
        answer = undefined;
      }
      const fail = (why: string, retryable: boolean) => {
        stats.failures += 1;
        return new TinkerApiError(`${method} /api/v1/${route} failed (${why}): ${failure} [${baseURL}]`, {
          route,
          attempts: attempt + 1,
          retryable,
          ...(answer ? { status: answer.status } : {}),
        });
      };
      if (answer) {
        const ok = answer.status >= 200 && answer.status < 300;
        if (ok && (answer.json !== undefined || answer.text === '')) return answer.json as T;
        failure = ok
          ? `the body is not JSON: ${answer.text.slice(0, 200)}`
          : `status ${answer.status}: ${detailOf(answer)}`;
        if (answer.status === 402 && answer.headers.get('x-should-retry') !== 'false') {
          // Billing: the SDK pauses (up to an hour) rather than fail a run that a top-up would let finish.
          billingSince ??= Date.now();
          if (Date.now() - billingSince >= scaled(retry.billingPauseMs)) {
            throw fail(
              `paused by billing for ${Math.round((Date.now() - billingSince) / 1000)} s, past retry.billingPauseMs`,
              false,
            );
          }
          stats.billingPauses += 1;
          const delayMs = scaled(retry.billingWaitMs);
          report({ route, retry: attempt + 1, delayMs, error: failure, reason: 'billing' });
          await sleep(delayMs, signal);
          continue;
        }
        billingSince = undefined;
        const retryable = ok ? true : shouldRetry(answer);
        if (!retryable) throw fail('not retryable', false);
        const asked = retryAfterMs({ headers: answer.headers });
        if (asked !== undefined && asked > 0 && asked <= retry.maxRetryAfterMs) wait = scaled(asked);
        if (answer.status === 429 && opts.backpressure) {
          // Sampling backpressure: the SDK waits 1 s (5 s for a large prompt) and asks again, without a limit.
          stats.backpressure += 1;
          const delayMs =
            wait ??
            scaled(
              retry.samplingBackoffMs[opts.backpressure.promptBytes > SAMPLING_LARGE_PROMPT_BYTES ? 1 : 0],
            );
          report({ route, retry: attempt + 1, delayMs, error: failure, reason: 'backpressure' });
          await sleep(delayMs, signal);
          continue;
        }
      } else failure ??= 'no answer';
      let delayMs: number;
      let reason: TinkerRetryEvent['reason'];
      if (retries < maxRetries) {
        delayMs = wait ?? backoff(retries);
        retries += 1;
        reason = 'retry';
      } else {
        const left = scaled(retry.outageMs) - (Date.now() - started);
        if (opts.maxRetries !== undefined || left <= 0) {
          throw fail(
            `gave up after ${attempt + 1} attempts in ${Math.round((Date.now() - started) / 1000)} s`,
            true,
          );
        }
        delayMs = Math.min(wait ?? outageDelayMs(retry, outageTries), left);
        outageTries += 1;
        reason = 'outage';
      }
      stats.retries += 1;
      report({ route, retry: attempt + 1, delayMs, error: failure, reason });
      await sleep(delayMs, signal);
    }
  }

  /** Polls one future until it is done (the loop of api_future_impl.py `_result_async`). */
  async function poll<T>(
    requestId: string,
    route: string,
    callSignal?: AbortSignal,
    decode?: (bytes: Uint8Array) => T,
  ): Promise<T> {
    const signal = signalOf(callSignal);
    const started = Date.now();
    let badRequests = 0;
    let connectionErrors = 0;
    let billingSince: number | undefined;
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
          {
            'X-Tinker-Request-Iteration': String(iteration),
            'X-Tinker-Request-Type': route,
            // The SDK asks for protobuf results of the types it can read so (response_conv.py); a server
            // that has none answers JSON, which is read as before.
            ...(decode ? { accept: `${PROTOBUF_CONTENT_TYPE}, application/json` } : {}),
          },
          signal,
          futures.requestTimeoutMs,
        );
      } catch (_error) {
        if (signal?.aborted) throw signal.reason;
        // No answer at all: back off as the SDK does for connection errors (2^k s, at most 30 s).
        await sleep(outageDelayMs(retry, connectionErrors++), signal);
        continue;
      }
      if (answer.status === 200 && answer.bytes && decode) return decode(answer.bytes);
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
          asked !== undefined && asked <= retry.maxRetryAfterMs ? scaled(asked) : backoff(connectionErrors++),
          signal,
        );
        continue;
      }
      if (answer.status === 402) {
        // The SDK's futures wait out billing like its calls do (api_future_impl.py, `_should_pause_on_billing`).
        billingSince ??= Date.now();
        if (Date.now() - billingSince < scaled(retry.billingPauseMs)) {
          stats.billingPauses += 1;
          const delayMs = scaled(retry.billingWaitMs);
          report({
            route: 'retrieve_future',
            retry: iteration + 1,
            delayMs,
            error: detailOf(answer),
            reason: 'billing',
          });
          await sleep(delayMs, signal);
          continue;
        }
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
  async function submit<T>(
    route: string,
    body: unknown,
    opts: CallOptions & { decode?: (bytes: Uint8Array) => T } = {},
  ): Promise<TinkerFuture<T>> {
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
            return await poll<T>(current.request_id, route, signal, opts.decode);
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

  // seq_id: the SDK numbers a training client's requests `request_id + 1` (a server decodes a missing one as
  // 0 and refuses it). A request that carries one is recorded; one without gets the next of its model.
  const seqs = new Map<string, number>();
  const seqFor = (modelId: string, given: number | undefined): number => {
    const last = seqs.get(modelId) ?? 0;
    if (given !== undefined) {
      if (!(Number.isInteger(given) && given >= 1)) {
        throw new InvalidArgumentError('seq_id', `expected an integer >= 1, got ${given}`);
      }
      seqs.set(modelId, Math.max(last, given));
      return given;
    }
    seqs.set(modelId, last + 1);
    return last + 1;
  };
  const numbered = <R extends { model_id: string; seq_id?: number }>(request: R): R & { seq_id: number } => ({
    ...request,
    seq_id: seqFor(request.model_id, request.seq_id),
  });

  // Sampling sessions, as the SDK's SamplingClient keeps them: one per sampler checkpoint (or base model),
  // created in the client's session, each numbering its own samples. A new checkpoint path (every update saves
  // one) gets a new session, so sampling follows the weights; an old one is dropped past `keep`.
  let session: TinkerSession | undefined;
  let ownSession: Promise<TinkerSession> | undefined;
  let sessionsSupported = options.samplingSessions ?? true;
  const samplers = new Map<string, Promise<string>>();
  const samplerSeqs = new Map<string, number>();
  const keep = 16;
  const sessionFor = async (signal?: AbortSignal): Promise<TinkerSession> => {
    if (session) return session;
    ownSession ??= openTinkerSession(api, { ...(signal ? { signal } : {}) }).catch((error: unknown) => {
      ownSession = undefined;
      throw error;
    });
    return ownSession;
  };
  const samplerFor = (
    key: { model_path?: string; base_model?: string },
    signal?: AbortSignal,
  ): Promise<string> => {
    const id = key.model_path ? `path:${key.model_path}` : `base:${key.base_model}`;
    let found = samplers.get(id);
    if (!found) {
      found = (async () => {
        const s = await sessionFor(signal);
        stats.samplingSessions += 1;
        const created = await call<CreateSamplingSessionResponse>(
          'POST',
          'create_sampling_session',
          {
            type: 'create_sampling_session',
            session_id: s.id,
            sampling_session_seq_id: s.nextSamplingSeqId(),
            ...(key.model_path ? { model_path: key.model_path } : { base_model: key.base_model }),
          },
          signal ? { signal } : {},
        );
        return created.sampling_session_id;
      })();
      found.catch(() => samplers.delete(id));
      samplers.set(id, found);
      while (samplers.size > keep) samplers.delete(samplers.keys().next().value as string);
    }
    return found;
  };

  async function sample(request: SampleRequest, signal?: AbortSignal): Promise<SampleResponse> {
    const promptBytes = request.prompt.chunks.reduce((n, c) => n + c.tokens.length * 10, 0);
    let body: Record<string, unknown> = { type: 'sample', ...request };
    if (request.sampling_session_id === undefined && sessionsSupported) {
      if ((request.model_path === undefined) === (request.base_model === undefined)) {
        throw new InvalidArgumentError('sample', 'expected exactly one of model_path or base_model');
      }
      try {
        const samplingSessionId = await samplerFor(request, signal);
        const { model_path: _p, base_model: _b, ...rest } = request;
        body = { type: 'sample', ...rest, sampling_session_id: samplingSessionId };
      } catch (error) {
        if (
          !(
            TinkerApiError.isInstance(error) &&
            error.status === 404 &&
            error.route === 'create_sampling_session'
          )
        ) {
          throw error;
        }
        // A server without sampling sessions (an older skyrl-tx): sample by path, as before.
        sessionsSupported = false;
      }
    }
    if (typeof body.sampling_session_id === 'string' && body.seq_id === undefined) {
      const id = body.sampling_session_id;
      const next = (samplerSeqs.get(id) ?? 0) + 1;
      samplerSeqs.set(id, next);
      body.seq_id = next;
    }
    const future = await submit<SampleResponse>('asample', body, {
      headers: { 'X-Tinker-Sampling-Backpressure': '1' },
      backpressure: { promptBytes },
      ...(signal ? { signal } : {}),
    });
    return future.result();
  }

  const refusesProtobuf = (error: unknown) =>
    TinkerApiError.isInstance(error) &&
    (error.status === 415 ||
      error.status === 422 ||
      (error.status === 400 && /json|protobuf|content-type/i.test(error.message)));

  /** Submits one forward(_backward) request in the wire format in use (see the `wire` option). */
  async function submitForward(
    kind: 'forward_backward' | 'forward',
    parts: {
      model_id: string;
      seq_id: number;
      data: readonly Datum[];
      loss_fn: string;
      loss_fn_config?: Record<string, number>;
    },
    json: () => unknown,
    signal?: AbortSignal,
  ): Promise<TinkerFuture<ForwardBackwardOutput>> {
    if (protobuf) {
      try {
        // The SDK sends both passes to forward_backward, a forward one with `forward_only`.
        return await submit<ForwardBackwardOutput>(
          'forward_backward',
          encodeForwardBackwardRequest({ ...parts, forwardOnly: kind === 'forward' }),
          { decode: decodeForwardBackwardOutput, ...(signal ? { signal } : {}) },
        );
      } catch (error) {
        if (wire !== 'auto' || !refusesProtobuf(error)) throw error;
        if (protobuf) stats.wireFallbacks += 1;
        protobuf = false;
      }
    }
    return submit<ForwardBackwardOutput>(kind, json(), signal ? { signal } : {});
  }

  async function forwardOnce(
    kind: 'forward_backward' | 'forward',
    request: ForwardBackwardRequest | ForwardRequest,
    signal?: AbortSignal,
  ): Promise<ForwardBackwardOutput> {
    const input =
      kind === 'forward'
        ? (request as ForwardRequest).forward_input
        : (request as ForwardBackwardRequest).forward_backward_input;
    const field = kind === 'forward' ? 'forward_input' : 'forward_backward_input';
    checkFiniteInputs(input?.data ?? [], field);
    const body = numbered(request);
    const future = await submitForward(
      kind,
      {
        model_id: body.model_id,
        seq_id: body.seq_id,
        data: input.data,
        loss_fn: input.loss_fn,
        ...(input.loss_fn_config ? { loss_fn_config: input.loss_fn_config } : {}),
      },
      () => body,
      signal,
    );
    return future.result();
  }

  /**
   * `forward_backward` (or `forward`) over any number of data, the SDK's way: split into requests of at most
   * `maxData` data and `maxBytes` bytes, numbered with consecutive `seq_id`s, all submitted before any result
   * is awaited (the SDK's `parallel_fwdbwd_chunks`: every chunk but the first at once, then the first), and
   * their futures awaited together, so the chunks are worked on at once. Results come back per chunk, in order.
   */
  async function forwardBackwardChunks(
    request: {
      model_id: string;
      data: Datum[];
      loss_fn: ForwardBackwardInput['loss_fn'];
      loss_fn_config?: Record<string, number>;
    },
    chunkOptions: {
      maxData?: number;
      maxBytes?: number;
      forwardOnly?: boolean;
      /** Numbers the chunks (e.g. a policy's own counter); default the client's counter of the model. */
      nextSeqId?: () => number;
      signal?: AbortSignal;
    } = {},
  ): Promise<{ chunks: { data: Datum[]; output: ForwardBackwardOutput; seqId: number }[] }> {
    const route = chunkOptions.forwardOnly ? 'forward' : 'forward_backward';
    checkFiniteInputs(request.data, route);
    if (request.data.length === 0) throw new InvalidArgumentError(route, 'expected at least one datum');
    const chunks = chunkData(request.data, {
      maxData: chunkOptions.maxData ?? TINKER_MAX_CHUNK_DATA,
      maxBytes: chunkOptions.maxBytes ?? TINKER_MAX_CHUNK_BYTES,
      wire: protobuf ? 'protobuf' : 'json',
      keepJson: !protobuf,
    });
    const signal = chunkOptions.signal;
    // Numbered in order first, so the server (which works a model's calls in seq_id order) sees one sequence.
    const numberedChunks = chunks.map((chunk) => {
      const seqId = seqFor(request.model_id, chunkOptions.nextSeqId?.());
      // The JSON body is written from the data's JSON made while chunking (each datum serialized once).
      const json = () => {
        const data = chunk.json ?? chunk.data.map((d) => JSON.stringify(d));
        const input = `{"data":[${data.join(',')}],"loss_fn":${JSON.stringify(request.loss_fn)}${
          request.loss_fn_config ? `,"loss_fn_config":${JSON.stringify(request.loss_fn_config)}` : ''
        }}`;
        const key = chunkOptions.forwardOnly ? 'forward_input' : 'forward_backward_input';
        return new JsonText(
          `{"model_id":${JSON.stringify(request.model_id)},"seq_id":${seqId},"${key}":${input}}`,
        );
      };
      return { data: chunk.data, seqId, json };
    });
    const send = (c: (typeof numberedChunks)[number]) =>
      submitForward(
        route,
        {
          model_id: request.model_id,
          seq_id: c.seqId,
          data: c.data,
          loss_fn: request.loss_fn,
          ...(request.loss_fn_config ? { loss_fn_config: request.loss_fn_config } : {}),
        },
        c.json,
        signal,
      );
    // The SDK's parallel mode: every chunk but the first at once, then the first, so that when the server can
    // start (at the first seq_id) the rest are already queued and are worked on together.
    const [head, ...rest] = numberedChunks;
    const restFutures = await Promise.all(rest.map(send));
    const headFuture = await send(head as (typeof numberedChunks)[number]);
    const submitted = numberedChunks.map((c, i) => ({
      data: c.data,
      seqId: c.seqId,
      future: i === 0 ? headFuture : (restFutures[i - 1] as TinkerFuture<ForwardBackwardOutput>),
    }));
    const outputs = await Promise.all(submitted.map((s) => s.future.result()));
    return {
      chunks: submitted.map((s, i) => ({
        data: s.data,
        seqId: s.seqId,
        output: outputs[i] as ForwardBackwardOutput,
      })),
    };
  }

  const api = {
    baseURL,
    /** The wire format `forward_backward` speaks now (`auto` may have fallen back to `json`). */
    wire: () => (protobuf ? 'protobuf' : 'json'),
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
      forwardOnce('forward_backward', request, signal),
    /** POST /api/v1/forward, then its future: the loss and log-probs without gradients. */
    forward: (request: ForwardRequest, signal?: AbortSignal) => forwardOnce('forward', request, signal),
    /** POST /api/v1/optim_step, then its future. */
    optimStep: (request: OptimStepRequest, signal?: AbortSignal) =>
      run<OptimStepResponse>('optim_step', { type: 'optim_step', ...numbered(request) }, signal),
    /** POST /api/v1/save_weights (a resumable checkpoint: weights and optimizer state), then its future. */
    saveWeights: (request: SaveWeightsRequest, signal?: AbortSignal) =>
      run<SaveWeightsResponse>('save_weights', { type: 'save_weights', ...numbered(request) }, signal),
    /** POST /api/v1/save_weights_for_sampler (weights a sampler can load), then its future. */
    saveWeightsForSampler: (request: SaveWeightsForSamplerRequest, signal?: AbortSignal) =>
      run<SaveWeightsForSamplerResponse>(
        'save_weights_for_sampler',
        { type: 'save_weights_for_sampler', ...numbered(request) },
        signal,
      ),
    /** POST /api/v1/load_weights (with `optimizer: true`, Adam's moments too), then its future. */
    loadWeights: (request: LoadWeightsRequest, signal?: AbortSignal) =>
      run<LoadWeightsResponse>('load_weights', { type: 'load_weights', ...numbered(request) }, signal),
    /**
     * POST /api/v1/asample, then its future. Given `model_path` or `base_model`, it samples through that
     * checkpoint's sampling session (created on first use) with the session's next `seq_id`, and sends
     * `X-Tinker-Sampling-Backpressure: 1`; a 429 is waited out (1–5 s, or the server's `Retry-After`) with
     * no count limit, until the call's or the client's `signal` ends it.
     */
    sample,
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
    /**
     * The session sampling sessions are created in (`openTinkerSession` attaches its session here). Without
     * one, the first sample opens a session of the client's own.
     */
    attachSession: (s: TinkerSession) => {
      session = s;
    },
    /** The `seq_id` the next training call of a model would get from the client's counter. */
    nextSeqId: (modelId: string) => (seqs.get(modelId) ?? 0) + 1,
    forwardBackwardChunks,
    /** Stops the heartbeats of a session the client opened itself. */
    close: async () => {
      const own = ownSession;
      ownSession = undefined;
      if (own) (await own.catch(() => undefined))?.close();
    },
  };
  return api;
}

export type TinkerClient = ReturnType<typeof createTinkerClient>;
