import { createRng, InvalidArgumentError, registerSecret, type Usage } from '@skillrl/core';
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import pLimit from 'p-limit';
import { createEndpointPool } from '../agent/endpoint-pool.js';
import { createHttpFetch, type HttpFetch, type HttpFetchOptions } from '../agent/http-fetch.js';
import { createRequestCache, type RequestCache } from '../cache/request-cache.js';
import { NoChoiceError } from '../resilience/no-choice-error.js';
import { createRateLimiter } from '../resilience/rate-limiter.js';
import { type RetryOptions, resolveRetryOptions } from '../resilience/retry-policy.js';
import { type RetryEvent, withRetries } from '../resilience/with-retries.js';
import { type ModelCallNote, traceModelCall } from '../trace/model-call-span.js';
import { costOf, type PriceTable } from '../usage/price-table.js';
import { type ReplyUse, unusableReply } from './unusable-reply.js';

/**
 * How to reach an OpenAI-compatible chat endpoint: shared by the agent and the chat model, so both get the
 * same retries, rate limits, cache and cost accounting from the same options.
 */
export interface OpenAIConnectionOptions {
  model: string;
  /** One endpoint, e.g. `http://127.0.0.1:8000/v1`. Default: the `openai` client's (api.openai.com). */
  baseURL?: string;
  /** Several equivalent endpoints, balanced by least in-flight requests. */
  baseURLs?: string[];
  /** Default `OPENAI_API_KEY`, else `EMPTY` (what local servers accept). Never logged or recorded. */
  apiKey?: string;
  /** Per-attempt timeout in milliseconds. Default 60 000. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Requests in flight at once, across endpoints. Default 256. */
  concurrency?: number;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  /** A directory (or a cache) of responses keyed by the full request: a rerun replays without calling the model. */
  cache?: string | RequestCache;
  /** Prices per million tokens by model id; fills `usage.cost`. */
  prices?: PriceTable;
  /** Seeds retry jitter. Default 0. */
  seed?: number;
  /** Called before each retry (after redaction-safe classification), e.g. for logging. */
  onRetry?: (event: RetryEvent & { baseURL: string }) => void;
  /** Sockets for the default keep-alive `node:http` transport (ignored when `clientOptions.fetch` is given). */
  http?: HttpFetchOptions;
  /**
   * Passed to the `openai` client (headers, or a `fetch` replacing the default keep-alive `node:http`
   * transport). `maxRetries` is always 0: retries are ours.
   */
  clientOptions?: Omit<ConstructorParameters<typeof OpenAI>[0] & object, 'baseURL' | 'apiKey' | 'maxRetries'>;
}

export interface OpenAIConnectionStats {
  requests: number;
  retries: number;
  cacheHits: number;
  failures: number;
  usage: Usage;
  endpoints: { baseURL: string; requests: number; inFlight: number }[];
}

export interface SendOptions {
  /**
   * What identifies the request in the cache when the body alone does not (a seed that is not sent, say).
   * Default: the body.
   */
  cacheKey?: unknown;
  /** Names the retry-jitter stream when there is no cache (with a cache, the cache key does). */
  jitterKey: string;
  signal?: AbortSignal;
  /**
   * What the caller can use of a choice. A 200 without one (no `choices`, `choices: []`, only choices
   * without it) throws `NoChoiceError` inside the retry loop, so it is retried like a 5xx and, past the
   * budget, ends as a `ModelCallError` saying what arrived; such a reply is never cached. Default `text`.
   */
  use?: ReplyUse;
}

export interface SendResult {
  response: ChatCompletion;
  latencyMs: number;
  cached: boolean;
  /** Tokens of this response, priced when the price table knows the model; `requests` is 1. */
  usage: Usage;
}

/** One model behind a pool of endpoints: the request machinery without any prompt building. */
export interface OpenAIConnection {
  readonly model: string;
  send(body: ChatCompletionCreateParamsNonStreaming, options: SendOptions): Promise<SendResult>;
  stats(): OpenAIConnectionStats;
  /** Closes idle keep-alive sockets of the default transport. The connection still works afterwards. */
  close(): void;
}

export function checkPositive(name: string, value: number | undefined, integer = false): void {
  if (value === undefined) return;
  if (!(Number.isFinite(value) && value > 0) || (integer && !Number.isInteger(value))) {
    throw new InvalidArgumentError(name, `expected ${integer ? 'an integer' : 'a number'} > 0, got ${value}`);
  }
}

/** Rough prompt size for the tokens-per-minute budget: about four characters a token. */
function estimateTokens(body: ChatCompletionCreateParamsNonStreaming): number {
  const completions = body.n ?? 1;
  return Math.ceil(JSON.stringify(body.messages).length / 4) + (body.max_tokens ?? 0) * completions;
}

let openaiModule: Promise<typeof OpenAI> | undefined;
/** The `openai` client class, imported once, on first use. */
const loadOpenAI = () => (openaiModule ??= import('openai').then((m) => m.default));

/**
 * Opens the endpoint pool for `options.model`. Retries, timeouts, concurrency and rate limits are owned here
 * rather than by the `openai` client, so they are seeded, observable and testable; a call that fails past the
 * budget throws `ModelCallError` with the API key redacted.
 */
export function createOpenAIConnection(options: OpenAIConnectionOptions): OpenAIConnection {
  if (!options || typeof options.model !== 'string' || options.model.length === 0) {
    throw new InvalidArgumentError(
      'options.model',
      'expected the model id the endpoint serves, e.g. "Qwen/Qwen3-8B"',
    );
  }
  checkPositive('options.timeoutMs', options.timeoutMs);
  checkPositive('options.concurrency', options.concurrency, true);
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? 'EMPTY';
  registerSecret(apiKey);
  const retry = resolveRetryOptions(options.retry);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const baseURLs = options.baseURLs ?? [options.baseURL ?? 'https://api.openai.com/v1'];
  const own = options.clientOptions?.fetch ? undefined : createHttpFetch(options.http);
  const transport = options.clientOptions?.fetch ?? (own as HttpFetch);
  // Each endpoint's client is made at its first request: the `openai` module (about 150 files) loads then, not
  // when a process that may never call a model (`skillrl --version`, `check`, a tfjs run) starts.
  const pool = createEndpointPool(baseURLs, (baseURL) => {
    let client: Promise<OpenAI> | undefined;
    return () =>
      (client ??= loadOpenAI().then(
        (OpenAIClient) =>
          new OpenAIClient({
            ...options.clientOptions,
            fetch: transport,
            baseURL,
            apiKey,
            maxRetries: 0,
            timeout: timeoutMs,
          }),
      ));
  });
  const limit = pLimit(options.concurrency ?? 256);
  const rateLimiter = createRateLimiter({
    ...(options.requestsPerMinute === undefined ? {} : { requestsPerMinute: options.requestsPerMinute }),
    ...(options.tokensPerMinute === undefined ? {} : { tokensPerMinute: options.tokensPerMinute }),
  });
  const rateLimited = options.requestsPerMinute !== undefined || options.tokensPerMinute !== undefined;
  const cache = typeof options.cache === 'string' ? createRequestCache(options.cache) : options.cache;
  const rng = createRng(options.seed ?? 0);
  const totals = {
    requests: 0,
    retries: 0,
    cacheHits: 0,
    failures: 0,
    usage: { inputTokens: 0, outputTokens: 0 } as Usage,
  };

  const call = async (
    body: ChatCompletionCreateParamsNonStreaming,
    key: string,
    use: ReplyUse,
    signal?: AbortSignal,
    note?: ModelCallNote,
  ) => {
    let current = '';
    return withRetries(
      (attempt) =>
        limit(async () => {
          if (rateLimited) await rateLimiter.acquire(estimateTokens(body), signal);
          const endpoint = pool.acquire();
          current = endpoint.baseURL;
          if (note) {
            note.baseURL = endpoint.baseURL;
            note.attempts = attempt + 1;
          }
          totals.requests++;
          if (attempt > 0) totals.retries++;
          // The openai client never removes the abort listener it adds to the signal it is given, so a
          // long-lived signal (an episode's, an editor's) would collect one per request: it gets a
          // per-request signal that follows the caller's and is dropped with the request.
          const request = signal ? new AbortController() : undefined;
          const follow = () => request?.abort(signal?.reason);
          if (signal?.aborted) follow();
          else signal?.addEventListener('abort', follow, { once: true });
          try {
            const client = await endpoint.client();
            const response = await client.chat.completions.create(
              body,
              request ? { signal: request.signal } : {},
            );
            const unusable = unusableReply(response, use);
            if (unusable !== undefined) throw new NoChoiceError(unusable);
            return response;
          } finally {
            signal?.removeEventListener('abort', follow);
            pool.release(endpoint);
          }
        }),
      {
        retry,
        rng: () => rng.fork(key),
        label: `chat completion for ${options.model}`,
        ...(signal ? { signal } : {}),
        onRetry: (event) => options.onRetry?.({ ...event, baseURL: current }),
      },
    );
  };

  const usageOf = (response: ChatCompletion): Usage => {
    const usage: Usage = {
      inputTokens: response.usage?.prompt_tokens ?? 0,
      outputTokens: response.usage?.completion_tokens ?? 0,
      requests: 1,
    };
    const cost = costOf(usage, options.model, options.prices);
    if (cost !== undefined) usage.cost = cost;
    return usage;
  };

  /** One call: from the cache, or the endpoints with retries; `note` learns where it went, for its span. */
  const send = async (
    body: ChatCompletionCreateParamsNonStreaming,
    sendOptions: SendOptions,
    note?: ModelCallNote,
  ): Promise<SendResult> => {
    const { signal } = sendOptions;
    const use = sendOptions.use ?? 'text';
    const key = cache ? cache.key(sendOptions.cacheKey ?? body) : sendOptions.jitterKey;
    const stored = cache ? await cache.get(key) : undefined;
    // A reply cached before replies were checked may have no usable choice: it is asked for again.
    const hit = stored && unusableReply(stored.response, use) === undefined ? stored : undefined;
    let response: ChatCompletion;
    let latencyMs: number;
    if (hit) {
      totals.cacheHits++;
      response = hit.response as ChatCompletion;
      latencyMs = hit.latencyMs;
    } else {
      const started = performance.now();
      try {
        response = await call(body, key, use, signal, note);
      } catch (error) {
        if (!signal?.aborted) totals.failures++;
        throw error;
      }
      latencyMs = Math.round(performance.now() - started);
      if (cache) await cache.set(key, { response, latencyMs });
    }
    const usage = usageOf(response);
    totals.usage.inputTokens += usage.inputTokens;
    totals.usage.outputTokens += usage.outputTokens;
    totals.usage.requests = (totals.usage.requests ?? 0) + 1;
    if (usage.cost !== undefined) totals.usage.cost = (totals.usage.cost ?? 0) + usage.cost;
    return { response, latencyMs, cached: hit !== undefined, usage };
  };

  return {
    model: options.model,
    // Each call in its `chat <model>` span (a no-op unless an OpenTelemetry SDK is registered).
    send: (body, sendOptions) => traceModelCall(options.model, body, (note) => send(body, sendOptions, note)),
    stats: () => ({
      ...totals,
      usage: { ...totals.usage },
      endpoints: pool.endpoints.map((e) => ({
        baseURL: e.baseURL,
        requests: e.requests,
        inFlight: e.inFlight,
      })),
    }),
    close: () => own?.destroy(),
  };
}
