import { randomUUID } from 'node:crypto';
import { createRng, InvalidArgumentError, redactSecrets, registerSecret } from '@skillrl/core';
import { retryAfterMs } from '@skillrl/rollout';
import { PROTOBUF_CONTENT_TYPE } from './protobuf-wire.js';
import {
  outageDelayMs,
  type ResolvedRetryPolicy,
  resolveRetryPolicy,
  retryDelayMs,
  SAMPLING_LARGE_PROMPT_BYTES,
} from './retry-policy.js';
import {
  TINKER_API_KEY_ENV,
  TINKER_DEFAULT_BASE_URL,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerFutureOptions,
  type TinkerRetryEvent,
} from './tinker-client-options.js';
import { TinkerApiError } from './tinker-errors.js';

export type TinkerHttpMethod = 'GET' | 'POST';

/** Per-call settings of `call` (and of `submit`, which sends its request with them). */
export interface TinkerRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Retries of this call (default the client's). */
  maxRetries?: number;
  headers?: Record<string, string>;
  /** A 429 is backpressure (sampling): waited out without a count limit. */
  backpressure?: { promptBytes: number };
}

/** The variable the key is read from, and whether it was set (the key itself is never exposed). */
export interface TinkerApiKeyStatus {
  env: string;
  set: boolean;
}

/** A body serialized already (the chunks of `forwardBackwardChunks`: each datum's JSON is made once). */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
  /** A protobuf body (`content-type: application/x-protobuf`). */
  bytes?: Uint8Array;
}

export function detailOf(answer: HttpAnswer): string {
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
 * The client's one place for the transport, which every resource sends through: the base URL and key, the
 * counters, retries and billing pauses, and the waits between them.
 */
export interface TinkerTransport {
  readonly baseURL: string;
  readonly apiKey: TinkerApiKeyStatus;
  /** The live counters (resources count their own events here too). */
  readonly stats: TinkerClientStats;
  readonly retry: ResolvedRetryPolicy;
  readonly futures: Required<TinkerFutureOptions>;
  /** One HTTP exchange; throws only for transport failures (no answer), which the callers retry. */
  exchange(
    method: TinkerHttpMethod,
    route: string,
    body: unknown,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    timeout: number,
  ): Promise<HttpAnswer>;
  /** A call with the client's retries (see `createTinkerTransport`). */
  call<T>(method: TinkerHttpMethod, route: string, body?: unknown, opts?: TinkerRequestOptions): Promise<T>;
  /** `call('GET', route)` with a call's signal. */
  get<T>(route: string, signal?: AbortSignal): Promise<T>;
  /** `call('POST', route, body)` with a call's signal. */
  post<T>(route: string, body: unknown, signal?: AbortSignal): Promise<T>;
  /** A call's signal joined with the client's. */
  signalOf(signal?: AbortSignal): AbortSignal | undefined;
  /** Tells `onRetry` (or stderr, for billing pauses) of a wait. */
  report(event: TinkerRetryEvent): void;
  /** The seeded backoff of the k-th retry. */
  backoff(attempt: number): number;
  /** A policy's wait under `retry.timeScale`. */
  scaled(ms: number): number;
}

/**
 * The transport of `createTinkerClient`: the API key from an environment variable as `X-API-Key`, redacted
 * from every error; retries with seeded equal-jitter backoff on 408/409/429/5xx and connection errors,
 * honouring `retry-after-ms`/`Retry-After` and `x-should-retry`; a timeout per call; an `X-Idempotency-Key`
 * per request, the same on every retry of it (so a retried `forward_backward` whose first answer was lost is
 * not applied twice); the outage phase past `maxRetries`, 402 billing pauses and sampling backpressure.
 */
export function createTinkerTransport(options: TinkerClientOptions): TinkerTransport {
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

  const exchange: TinkerTransport['exchange'] = async (method, route, body, headers, signal, timeout) => {
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
  };

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
    method: TinkerHttpMethod,
    route: string,
    body?: unknown,
    opts: TinkerRequestOptions = {},
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

  return {
    baseURL,
    apiKey: { env: keyEnv, set: apiKey !== undefined && apiKey !== '' },
    stats,
    retry,
    futures,
    exchange,
    call,
    get: (route, signal) => call('GET', route, undefined, signal ? { signal } : {}),
    post: (route, body, signal) => call('POST', route, body, signal ? { signal } : {}),
    signalOf,
    report,
    backoff,
    scaled,
  };
}
