import { distance } from 'fastest-levenshtein';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type { OpenAIAgentOptions } from '../agent/create-openai-agent.js';
import type { HttpFetchOptions } from '../agent/http-fetch.js';
import type { ActionParserOptions } from '../agent/parse-action.js';
import type { OpenAIChatModelOptions } from '../chat/create-openai-chat-model.js';
import type { RetryOptions } from '../resilience/retry-policy.js';
import { UnknownOptionError } from './unknown-option-error.js';

/** Every key of T, each once: the compiler fails when T gains or loses one, so the lists below keep up. */
type EveryKey<T> = { readonly [K in keyof Required<T>]: true };
const keys = <T>(table: EveryKey<T>): readonly string[] => Object.keys(table);

/** The request fields of OpenAI's chat-completion API (the `openai` SDK's `ChatCompletionCreateParams`). */
export const OPENAI_CHAT_PARAMETERS = keys<ChatCompletionCreateParamsBase>({
  messages: true,
  model: true,
  audio: true,
  frequency_penalty: true,
  function_call: true,
  functions: true,
  logit_bias: true,
  logprobs: true,
  max_completion_tokens: true,
  max_tokens: true,
  metadata: true,
  modalities: true,
  moderation: true,
  n: true,
  parallel_tool_calls: true,
  prediction: true,
  presence_penalty: true,
  prompt_cache_key: true,
  prompt_cache_options: true,
  prompt_cache_retention: true,
  reasoning_effort: true,
  response_format: true,
  safety_identifier: true,
  seed: true,
  service_tier: true,
  stop: true,
  store: true,
  stream: true,
  stream_options: true,
  temperature: true,
  tool_choice: true,
  tools: true,
  top_logprobs: true,
  top_p: true,
  user: true,
  verbosity: true,
  web_search_options: true,
});

const CONNECTION = {
  model: true,
  baseURL: true,
  baseURLs: true,
  apiKey: true,
  timeoutMs: true,
  retry: true,
  concurrency: true,
  requestsPerMinute: true,
  tokensPerMinute: true,
  cache: true,
  prices: true,
  seed: true,
  onRetry: true,
  http: true,
  clientOptions: true,
} as const;

/** The options of `createOpenAIAgent`. */
export const OPENAI_AGENT_OPTIONS = keys<OpenAIAgentOptions>({
  ...CONNECTION,
  temperature: true,
  topP: true,
  maxTokens: true,
  mode: true,
  actionParser: true,
  systemPrompt: true,
  skillTemplate: true,
  historyWindow: true,
  logprobs: true,
  topLogprobs: true,
  toolChoice: true,
  sendSeed: true,
  extraBody: true,
  returnTokenIds: true,
  recordChat: true,
});

/** The options of `createOpenAIChatModel` (the LLM skill editor's `model`, an LLM judge's). */
export const OPENAI_CHAT_MODEL_OPTIONS = keys<OpenAIChatModelOptions>({
  ...CONNECTION,
  temperature: true,
  topP: true,
  maxTokens: true,
  logprobs: true,
  topLogprobs: true,
  sendSeed: true,
  extraBody: true,
  sampling: true,
});

const NESTED: Record<string, readonly string[]> = {
  retry: keys<RetryOptions>({ maxRetries: true, baseDelayMs: true, maxDelayMs: true, maxRetryAfterMs: true }),
  http: keys<HttpFetchOptions>({ maxSockets: true, maxFreeSockets: true }),
  actionParser: keys<ActionParserOptions>({ formats: true, tag: true, prefix: true }),
};

/** A problem with one option, by path: what `skillrl check` lists, and what the factories throw. */
export interface OptionIssue {
  path: string;
  message: string;
  /** The option meant, when one is close. */
  suggestion?: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const fold = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/**
 * The nearest name, when it is near enough to be a misspelling: edits up to a third of its length (at most 3;
 * none for one or two letters). Case, `_` and `-` are ignored.
 */
function nearest(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of names) {
    const d = fold(candidate) === fold(name) ? 0 : distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined &&
    bestDistance <= (name.length <= 2 ? 0 : Math.min(3, Math.ceil(name.length / 3)))
    ? best
    : undefined;
}

function unknownName(
  path: string,
  name: string,
  known: readonly string[],
  what: string,
  withParameters: boolean,
): OptionIssue {
  const at = `${path}.${name}`;
  // An OpenAI field written as the API spells it (`max_tokens`, `top_p`): the option has its camelCase name.
  const ours = known.find((k) => k === camel(name)) ?? nearest(name, known);
  if (ours !== undefined) {
    const sends = withParameters && OPENAI_CHAT_PARAMETERS.includes(name) ? ` (sent as ${name})` : '';
    return {
      path: at,
      message: `unknown option of ${what}; did you mean ${ours}?${sends}`,
      suggestion: ours,
    };
  }
  if (withParameters) {
    const parameter = OPENAI_CHAT_PARAMETERS.includes(name) ? name : nearest(name, OPENAI_CHAT_PARAMETERS);
    if (parameter !== undefined) {
      const meant = parameter === name ? '' : `did you mean ${parameter}? `;
      return {
        path: at,
        message: `unknown option of ${what}; ${meant}${parameter} is an OpenAI chat-completion field that ${what} does not set: send it with extraBody: { ${parameter}: … }`,
        suggestion: `extraBody.${parameter}`,
      };
    }
  }
  return {
    path: at,
    message: `unknown option of ${what}; expected one of ${known.join(', ')}${withParameters ? ' (other OpenAI request fields go in extraBody)' : ''}`,
  };
}

/**
 * Every option name in `options` that is not one of `known`, with the name meant: a misspelling
 * (`temprature` → `temperature`), the API's snake_case spelling of one (`max_tokens` → `maxTokens`), or an
 * OpenAI request field we do not set (`presence_penalty` → `extraBody`). `retry`, `http` and an object
 * `actionParser` are checked one level down. `also` names options a caller adds (the orchestrator's
 * `apiKeyEnv`).
 */
export function checkOptionNames(
  options: unknown,
  known: readonly string[],
  path: string,
  what: string,
  also: readonly string[] = [],
): OptionIssue[] {
  if (!isPlainObject(options)) return [];
  const all = [...known, ...also];
  const issues: OptionIssue[] = [];
  for (const name of Object.keys(options)) {
    if (!all.includes(name)) {
      issues.push(unknownName(path, name, all, what, true));
      continue;
    }
    const nested = NESTED[name];
    const value = options[name];
    if (nested && isPlainObject(value)) {
      for (const inner of Object.keys(value)) {
        if (!nested.includes(inner)) {
          issues.push(unknownName(`${path}.${name}`, inner, nested, `${what}'s ${name}`, false));
        }
      }
    }
  }
  return issues;
}

/** The openai agent's option names, checked: each issue's path under `path` (`agent.options` in a config). */
export function checkOpenAIAgentOptions(
  options: unknown,
  path = 'options',
  also: readonly string[] = [],
): OptionIssue[] {
  return checkOptionNames(options, OPENAI_AGENT_OPTIONS, path, 'the openai agent', also);
}

/** The chat model's option names, checked (`evolve.generator.options.model` in a config). */
export function checkOpenAIChatModelOptions(
  options: unknown,
  path = 'options',
  also: readonly string[] = [],
): OptionIssue[] {
  return checkOptionNames(options, OPENAI_CHAT_MODEL_OPTIONS, path, 'the OpenAI chat model', also);
}

/** Throws an `UnknownOptionError` for the first unknown option (the factories' check). */
export function throwOnUnknownOptions(issues: readonly OptionIssue[]): void {
  const [first] = issues;
  if (!first) return;
  const more =
    issues.length > 1
      ? ` (and ${issues.length - 1} more: ${issues
          .slice(1)
          .map((i) => i.path)
          .join(', ')})`
      : '';
  throw new UnknownOptionError(first.path, `${first.message}${more}`, first.suggestion);
}
