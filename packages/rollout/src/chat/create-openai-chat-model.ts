import { createHash } from 'node:crypto';
import {
  type ChatChoice,
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  createRng,
  InvalidArgumentError,
  REQUEST_SEED_RANGE,
  type Usage,
} from '@skillrl/core';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import { extractTokens } from '../agent/extract-tokens.js';
import { canonicalJson } from '../cache/canonical-json.js';
import {
  checkPositive,
  createOpenAIConnection,
  type OpenAIConnectionOptions,
  type OpenAIConnectionStats,
} from '../connection/create-openai-connection.js';
import { isUsableChoice } from '../connection/unusable-reply.js';
import { checkOpenAIChatModelOptions, throwOnUnknownOptions } from '../options/check-option-names.js';
import { NoChoiceError } from '../resilience/no-choice-error.js';
import { addUsage } from '../usage/price-table.js';

/**
 * How `n > 1` completions are sampled. `auto`: one request with `n`; when the server ignores `n` (Ollama,
 * llama.cpp and some proxies answer with one choice), the missing choices are requested one by one.
 * `separate`: always `n` requests of one choice each.
 */
export type ChatSampling = 'auto' | 'separate';

export interface OpenAIChatModelOptions extends OpenAIConnectionOptions {
  /** Defaults for requests that leave them out. */
  temperature?: number;
  topP?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Ask for per-token log-probs (and token ids, where the server has them) unless the request says. Default false. */
  logprobs?: boolean;
  topLogprobs?: number;
  /** Send the request's seed (and the derived per-choice seeds) as `seed`. Default true. */
  sendSeed?: boolean;
  /** Extra body fields, e.g. `{ return_token_ids: true }` for vLLM. Part of the cache key. */
  extraBody?: Record<string, unknown>;
  /** Default `auto`. */
  sampling?: ChatSampling;
}

export type OpenAIChatModelStats = OpenAIConnectionStats;

export interface OpenAIChatModel extends ChatModel {
  readonly name: string;
  stats(): OpenAIChatModelStats;
  /** Closes idle keep-alive sockets of the default transport. The model still works afterwards. */
  close(): void;
}

const ROLES = new Set(['system', 'user', 'assistant']);

/**
 * The seed of choice `i` when choices are sampled by separate requests: choice 0 keeps the request's seed
 * (so `n: 1` sends exactly what the caller asked), the others get independent seeds derived from it.
 */
export function choiceSeed(seed: number, index: number): number {
  return index === 0 ? seed : createRng(seed).seedFor(`choice/${index}`) % REQUEST_SEED_RANGE;
}

function checkRequest(request: ChatRequest): number {
  if (!request || !Array.isArray(request.messages) || request.messages.length === 0) {
    throw new InvalidArgumentError('request.messages', 'expected a non-empty array of { role, content }');
  }
  request.messages.forEach((m, i) => {
    if (!m || !ROLES.has(m.role) || typeof m.content !== 'string') {
      throw new InvalidArgumentError(
        `request.messages[${i}]`,
        'expected { role: "system" | "user" | "assistant", content: string }',
      );
    }
  });
  const n = request.n ?? 1;
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError('request.n', `expected an integer >= 1, got ${request.n}`);
  }
  if (request.seed !== undefined && !Number.isSafeInteger(request.seed)) {
    throw new InvalidArgumentError('request.seed', `expected a safe integer, got ${request.seed}`);
  }
  checkPositive('request.maxTokens', request.maxTokens, true);
  if (request.temperature !== undefined && !(request.temperature >= 0)) {
    throw new InvalidArgumentError(
      'request.temperature',
      `expected a number >= 0, got ${request.temperature}`,
    );
  }
  if (request.topP !== undefined && !(request.topP > 0 && request.topP <= 1)) {
    throw new InvalidArgumentError('request.topP', `expected a number in (0, 1], got ${request.topP}`);
  }
  return n;
}

function toChoice(choice: ChatCompletion['choices'][number]): ChatChoice {
  const out: ChatChoice = { text: choice.message.content as string };
  if (choice.finish_reason) out.finishReason = choice.finish_reason;
  const { tokenIds, logProbs } = extractTokens(choice as Parameters<typeof extractTokens>[0]);
  if (tokenIds) out.tokenIds = tokenIds;
  if (logProbs) out.logProbs = logProbs;
  return out;
}

/**
 * The response's choices with text, in index order. The connection has checked that there is at least one
 * (`use: 'text'`); a choice without text among others is left out, and `complete` asks for it again.
 */
function choicesOf(response: ChatCompletion): ChatChoice[] {
  return response.choices
    .filter((choice) => isUsableChoice(choice, 'text'))
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map(toChoice);
}

/**
 * A text-in, text-out `ChatModel` over any OpenAI-compatible endpoint, with the agent's connection
 * machinery (endpoint pool, concurrency cap, rate limits, seeded retries honouring Retry-After, request cache,
 * usage and cost). What skill editors and LLM judges call.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): OpenAIChatModel {
  throwOnUnknownOptions(checkOpenAIChatModelOptions(options));
  const connection = createOpenAIConnection(options);
  checkPositive('options.maxTokens', options.maxTokens, true);
  const sampling = options.sampling ?? 'auto';
  if (sampling !== 'auto' && sampling !== 'separate') {
    throw new InvalidArgumentError(
      'options.sampling',
      `expected 'auto' or 'separate', got ${JSON.stringify(sampling)}`,
    );
  }
  const sendSeed = options.sendSeed ?? true;

  const buildBody = (request: ChatRequest, n: number, seed: number | undefined) => {
    const body: ChatCompletionCreateParamsNonStreaming & Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    const temperature = request.temperature ?? options.temperature;
    const topP = request.topP ?? options.topP;
    const maxTokens = request.maxTokens ?? options.maxTokens;
    if (temperature !== undefined) body.temperature = temperature;
    if (topP !== undefined) body.top_p = topP;
    if (maxTokens !== undefined) body.max_tokens = maxTokens;
    if (n > 1) body.n = n;
    if (request.logprobs ?? options.logprobs ?? false) {
      body.logprobs = true;
      if (options.topLogprobs !== undefined) body.top_logprobs = options.topLogprobs;
    }
    if (sendSeed && seed !== undefined) body.seed = seed % REQUEST_SEED_RANGE;
    return body;
  };

  /** Choice `index` of an `n`-sample, as a request of its own. */
  const sendOne = (request: ChatRequest, index: number) => {
    const seed = request.seed === undefined ? undefined : choiceSeed(request.seed, index);
    const body = buildBody(request, 1, seed);
    return send(body, index, seed, request.signal);
  };

  const send = (
    body: ChatCompletionCreateParamsNonStreaming,
    index: number,
    seed: number | undefined,
    signal: AbortSignal | undefined,
  ) => {
    // Unsent or absent seeds still tell samples apart in the cache: without them the n identical bodies of a
    // fallback (or two calls that differ only in an unsent seed) would share one entry and one text.
    const cacheKey =
      body.seed === undefined && (index > 0 || seed !== undefined)
        ? { ...body, sample: index, requestSeed: seed }
        : body;
    const jitterKey = createHash('sha256').update(canonicalJson(cacheKey)).digest('hex').slice(0, 16);
    return connection.send(body, { cacheKey, jitterKey, use: 'text', ...(signal ? { signal } : {}) });
  };

  return {
    name: `openai:${options.model}`,
    model: options.model,
    async complete(request) {
      const n = checkRequest(request);
      let choices: ChatChoice[] = [];
      let usage: Usage | undefined;
      if (sampling === 'auto' || n === 1) {
        const first = await send(buildBody(request, n, request.seed), 0, request.seed, request.signal);
        choices = choicesOf(first.response).slice(0, n);
        usage = first.usage;
      }
      const missing = Array.from({ length: n - choices.length }, (_, k) => choices.length + k);
      const rest = await Promise.all(missing.map((index) => sendOne(request, index)));
      for (const result of rest) {
        const [choice] = choicesOf(result.response);
        // Unreachable through the connection's check; kept so a reply is never padded with empty text.
        if (!choice) throw new NoChoiceError('the endpoint answered 200 with no usable choice');
        choices.push(choice);
        usage = addUsage(usage, result.usage);
      }
      const response: ChatResponse = { choices };
      if (usage) response.usage = usage;
      return response;
    },
    stats: () => connection.stats(),
    close: () => connection.close(),
  };
}
