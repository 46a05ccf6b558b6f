import {
  type Agent,
  type AgentAction,
  type AgentContext,
  createRng,
  InvalidArgumentError,
  registerSecret,
  type Usage,
} from '@skillrl/core';
import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import pLimit from 'p-limit';
import { createRequestCache, type RequestCache } from '../cache/request-cache.js';
import { createRateLimiter } from '../resilience/rate-limiter.js';
import { type RetryOptions, resolveRetryOptions } from '../resilience/retry-policy.js';
import { type RetryEvent, withRetries } from '../resilience/with-retries.js';
import { costOf, type PriceTable } from '../usage/price-table.js';
import { buildTools, decodeToolCall } from './action-tools.js';
import { buildMessages } from './build-messages.js';
import { createEndpointPool } from './endpoint-pool.js';
import { extractTokens } from './extract-tokens.js';
import { createHttpFetch, type HttpFetch, type HttpFetchOptions } from './http-fetch.js';
import { type ActionParser, type ActionParserOptions, createActionParser } from './parse-action.js';
import {
  type AgentMode,
  DEFAULT_SYSTEM_PROMPT,
  renderSystemPrompt,
  type SystemPromptTemplate,
} from './system-prompt.js';

export interface OpenAIAgentOptions {
  model: string;
  /** One endpoint, e.g. `http://127.0.0.1:8000/v1`. Default: the `openai` client's (api.openai.com). */
  baseURL?: string;
  /** Several equivalent endpoints, balanced by least in-flight requests. */
  baseURLs?: string[];
  /** Default `OPENAI_API_KEY`, else `EMPTY` (what local servers accept). Never logged or recorded. */
  apiKey?: string;
  temperature?: number;
  topP?: number;
  /** Sent as `max_tokens`, which vLLM, SGLang, Ollama, llama.cpp and OpenAI's chat models all accept. */
  maxTokens?: number;
  /** `text` (default): the action is parsed out of the reply. `tools`: the model calls function tools. */
  mode?: AgentMode;
  /** Text-mode parsing: options for the default parser, or your own parser. */
  actionParser?: ActionParserOptions | ActionParser;
  systemPrompt?: SystemPromptTemplate;
  /** Template for the skill block (`{{name}}`, `{{description}}`, `{{body}}`). */
  skillTemplate?: string;
  /** Keep only the last N steps of history in the prompt. Default: all. */
  historyWindow?: number;
  /** Ask for per-token log-probs (and token ids, where the server has them). Default false. */
  logprobs?: boolean;
  topLogprobs?: number;
  /** Tools mode: `tool_choice`. Default `auto` (older servers reject `required`). */
  toolChoice?: 'auto' | 'required';
  /**
   * Send the per-decision seed (mod 2^31) as the request's `seed` (vLLM, OpenAI, llama.cpp honour it).
   * Default true.
   */
  sendSeed?: boolean;
  /** Extra body fields, e.g. `{ return_token_ids: true }` for vLLM. Part of the cache key. */
  extraBody?: Record<string, unknown>;
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

export interface OpenAIAgentStats {
  requests: number;
  retries: number;
  cacheHits: number;
  failures: number;
  usage: Usage;
  endpoints: { baseURL: string; requests: number; inFlight: number }[];
}

export interface OpenAIAgent extends Agent {
  readonly name: string;
  readonly model: string;
  stats(): OpenAIAgentStats;
  /** Closes idle keep-alive sockets of the default transport. The agent still works afterwards. */
  close(): void;
}

function checkPositive(name: string, value: number | undefined, integer = false): void {
  if (value === undefined) return;
  if (!(Number.isFinite(value) && value > 0) || (integer && !Number.isInteger(value))) {
    throw new InvalidArgumentError(name, `expected ${integer ? 'an integer' : 'a number'} > 0, got ${value}`);
  }
}

/** Rough prompt size for the tokens-per-minute budget: about four characters a token. */
function estimateTokens(body: ChatCompletionCreateParamsNonStreaming): number {
  return Math.ceil(JSON.stringify(body.messages).length / 4) + (body.max_tokens ?? 0);
}

/**
 * An agent backed by any OpenAI-compatible chat endpoint (OpenAI, vLLM, SGLang, Ollama, llama.cpp).
 * Retries, timeouts, concurrency and rate limits are owned here rather than by the `openai` client, so they
 * are seeded, observable and testable; a call that fails past the budget throws `ModelCallError`, which
 * `runEpisode` records as the trajectory's `error`.
 */
export function createOpenAIAgent(options: OpenAIAgentOptions): OpenAIAgent {
  if (!options || typeof options.model !== 'string' || options.model.length === 0) {
    throw new InvalidArgumentError(
      'options.model',
      'expected the model id the endpoint serves, e.g. "Qwen/Qwen3-8B"',
    );
  }
  checkPositive('options.timeoutMs', options.timeoutMs);
  checkPositive('options.concurrency', options.concurrency, true);
  checkPositive('options.maxTokens', options.maxTokens, true);
  const mode = options.mode ?? 'text';
  if (mode !== 'text' && mode !== 'tools') {
    throw new InvalidArgumentError('options.mode', `expected 'text' or 'tools', got ${JSON.stringify(mode)}`);
  }
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? 'EMPTY';
  registerSecret(apiKey);
  const retry = resolveRetryOptions(options.retry);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const parse =
    typeof options.actionParser === 'function'
      ? options.actionParser
      : createActionParser(options.actionParser);
  const baseURLs = options.baseURLs ?? [options.baseURL ?? 'https://api.openai.com/v1'];
  const own = options.clientOptions?.fetch ? undefined : createHttpFetch(options.http);
  const transport = options.clientOptions?.fetch ?? (own as HttpFetch);
  const pool = createEndpointPool(
    baseURLs,
    (baseURL) =>
      new OpenAI({
        ...options.clientOptions,
        fetch: transport,
        baseURL,
        apiKey,
        maxRetries: 0,
        timeout: timeoutMs,
      }),
  );
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

  const buildBody = (context: AgentContext): ChatCompletionCreateParamsNonStreaming => {
    const system = renderSystemPrompt(
      options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      {
        task: context.task,
        condition: context.condition,
        mode,
        ...(context.condition === 1 && context.skill ? { skill: context.skill } : {}),
        ...(context.admissibleActions ? { admissibleActions: context.admissibleActions } : {}),
        ...(context.tools ? { tools: context.tools } : {}),
      },
      options.skillTemplate,
    );
    const body: ChatCompletionCreateParamsNonStreaming & Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      messages: buildMessages(context, {
        system,
        mode,
        ...(options.historyWindow === undefined ? {} : { historyWindow: options.historyWindow }),
      }),
    };
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.topP !== undefined) body.top_p = options.topP;
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    if (options.logprobs) {
      body.logprobs = true;
      if (options.topLogprobs !== undefined) body.top_logprobs = options.topLogprobs;
    }
    // Folded into 31 bits: llama.cpp and some vLLM versions reject or wrap seeds beyond a 32-bit integer.
    if ((options.sendSeed ?? true) && context.seed !== undefined) body.seed = context.seed % 2_147_483_648;
    if (mode === 'tools') {
      body.tools = buildTools(context.admissibleActions, context.tools);
      body.tool_choice = options.toolChoice ?? 'auto';
    }
    return body;
  };

  const call = async (body: ChatCompletionCreateParamsNonStreaming, key: string, signal?: AbortSignal) => {
    let current = '';
    return withRetries(
      (attempt) =>
        limit(async () => {
          if (rateLimited) await rateLimiter.acquire(estimateTokens(body), signal);
          const endpoint = pool.acquire();
          current = endpoint.baseURL;
          totals.requests++;
          if (attempt > 0) totals.retries++;
          try {
            return await endpoint.client.chat.completions.create(body, signal ? { signal } : {});
          } finally {
            pool.release(endpoint);
          }
        }),
      {
        retry,
        rng: rng.fork(key),
        label: `chat completion for ${options.model}`,
        ...(signal ? { signal } : {}),
        onRetry: (event) => options.onRetry?.({ ...event, baseURL: current }),
      },
    );
  };

  const decode = (response: ChatCompletion, latencyMs: number, context: AgentContext): AgentAction => {
    const choice = response.choices?.[0];
    const info: Record<string, unknown> = { latencyMs };
    const usage: Usage = {
      inputTokens: response.usage?.prompt_tokens ?? 0,
      outputTokens: response.usage?.completion_tokens ?? 0,
      requests: 1,
    };
    const cost = costOf(usage, options.model, options.prices);
    if (cost !== undefined) usage.cost = cost;
    if (!choice)
      return {
        action: '',
        invalid: true,
        raw: '',
        usage,
        info: { ...info, error: 'the response has no choices' },
      };
    const raw = choice.message?.content ?? '';
    info.raw = raw;
    if (choice.finish_reason) info.finishReason = choice.finish_reason;
    const tokens = extractTokens(choice as Parameters<typeof extractTokens>[0]);
    const calls = (choice.message?.tool_calls ?? []).filter((c) => c.type === 'function');
    let result: Pick<AgentAction, 'action' | 'invalid'>;
    if (mode === 'tools' && calls.length > 0) {
      const first = calls[0] as (typeof calls)[number];
      const decoded = decodeToolCall(
        { id: first.id, name: first.function.name, arguments: first.function.arguments },
        context.tools,
      );
      info.toolCall = decoded.toolCall;
      if (decoded.toolArgs) info.toolArgs = decoded.toolArgs;
      if (decoded.error) info.error = decoded.error;
      if (calls.length > 1) info.ignoredToolCalls = calls.length - 1;
      result = { action: decoded.action, invalid: decoded.invalid };
    } else {
      if (mode === 'tools') info.noToolCall = true;
      const parsed = parse(raw);
      if (parsed.invalid) info.error = raw ? 'no action found in the reply' : 'empty reply';
      result = { action: parsed.action, invalid: parsed.invalid };
    }
    const action: AgentAction = { ...result, raw, usage, info, ...tokens };
    if (!action.invalid) delete action.invalid;
    return action;
  };

  return {
    name: `openai:${options.model}`,
    model: options.model,
    async act(context) {
      const body = buildBody(context);
      // The decision seed is part of the key even when it is not sent: without it the n identical prompts of
      // a group would share one cache entry and the group would collapse to a single rollout.
      const keyed =
        body.seed === undefined && context.seed !== undefined
          ? { ...body, decisionSeed: context.seed }
          : body;
      const key = cache ? cache.key(keyed) : `${context.task.id}/${context.seed ?? ''}/${context.stepIndex}`;
      const hit = cache ? await cache.get(key) : undefined;
      let response: ChatCompletion;
      let latencyMs: number;
      if (hit) {
        totals.cacheHits++;
        response = hit.response as ChatCompletion;
        latencyMs = hit.latencyMs;
      } else {
        const started = performance.now();
        try {
          response = await call(body, key, context.signal);
        } catch (error) {
          if (!context.signal?.aborted) totals.failures++;
          throw error;
        }
        latencyMs = Math.round(performance.now() - started);
        if (cache) await cache.set(key, { response, latencyMs });
      }
      const action = decode(response, latencyMs, context);
      if (action.usage) {
        totals.usage.inputTokens += action.usage.inputTokens;
        totals.usage.outputTokens += action.usage.outputTokens;
        totals.usage.requests = (totals.usage.requests ?? 0) + 1;
        if (action.usage.cost !== undefined) totals.usage.cost = (totals.usage.cost ?? 0) + action.usage.cost;
      }
      return action;
    },
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
