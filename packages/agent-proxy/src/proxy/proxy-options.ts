import { InvalidArgumentError, type Skill } from '@skillrl/core';
import type { RetryOptions } from '@skillrl/rollout';
import type { RecordedCall } from './recorded-call.js';

/** Where the proxy sends the program's calls, and how (the same knobs as rollout's openai agent). */
export interface ProxyUpstreamOptions {
  /** The model every call is sent with: the program's own `model` field is replaced (and recorded). */
  model: string;
  /** One endpoint, e.g. `http://127.0.0.1:8000/v1`. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Several equivalent endpoints (vLLM replicas), balanced by least requests in flight. */
  baseURLs?: string[];
  /** Name of the environment variable that holds the real key. Default `OPENAI_API_KEY`; unset → `EMPTY`. */
  apiKeyEnv?: string;
  /**
   * Per attempt, in milliseconds. Default 60 000. A plain call must be answered within it; a stream must send
   * its first byte within it, and never go quiet for longer between two chunks.
   */
  timeoutMs?: number;
  /** Retries of 429, 408/409, 5xx and network errors, `Retry-After` honoured (rollout's defaults: 4 retries). */
  retry?: RetryOptions;
  /** Upstream requests in flight at once, across endpoints. Default 256. */
  concurrency?: number;
  requestsPerMinute?: number;
  /** Tokens per minute: a call costs its body's length / 4 plus `max_tokens` (or `max_completion_tokens`) × n. */
  tokensPerMinute?: number;
  /**
   * Merged into every upstream request body, over the program's fields (e.g. vLLM's
   * `{ return_token_ids: true }` so that token ids are recorded, or `{ logprobs: true }`).
   */
  extraBody?: Record<string, unknown>;
}

export interface RecordingProxyOptions {
  upstream: ProxyUpstreamOptions;
  /** `system` (default): under condition 1 the skill goes into the system message; `none`: never. */
  injectSkill?: 'system' | 'none';
  /** The skill's text as injected. Default: rollout's `renderSkill` with `DEFAULT_SKILL_TEMPLATE`. */
  skillTemplate?: (skill: Skill) => string;
  /** Default 0 (a free port). The proxy always binds 127.0.0.1. */
  port?: number;
  /** Where `upstream.apiKeyEnv` is read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Called with every call as it finishes (success or failure), before `takeCalls` returns it. */
  onCall?: (call: RecordedCall) => void;
}

function checkPositive(name: string, value: number | undefined, integer = false): void {
  if (value === undefined) return;
  if (!(Number.isFinite(value) && value > 0) || (integer && !Number.isInteger(value))) {
    throw new InvalidArgumentError(name, `expected ${integer ? 'an integer' : 'a number'} > 0, got ${value}`);
  }
}

function checkBaseURL(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new InvalidArgumentError(name, 'expected a URL string');
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new InvalidArgumentError(
      name,
      'expected an absolute http(s) URL such as http://127.0.0.1:8000/v1',
      {
        cause: error,
      },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(name, `expected an http: or https: URL, got ${url.protocol}`);
  }
  return value;
}

/** Checks the options a caller can get wrong, naming the option and what would work. */
export function checkRecordingProxyOptions(options: RecordingProxyOptions): void {
  if (!options || typeof options !== 'object' || !options.upstream || typeof options.upstream !== 'object') {
    throw new InvalidArgumentError(
      'options.upstream',
      'expected { model, baseURL | baseURLs, ... }: the endpoint the proxy sends calls to',
    );
  }
  const u = options.upstream;
  if (typeof u.model !== 'string' || u.model.length === 0) {
    throw new InvalidArgumentError(
      'options.upstream.model',
      'expected the model id the endpoint serves, e.g. "Qwen/Qwen3-8B"',
    );
  }
  if (u.baseURL !== undefined) checkBaseURL('options.upstream.baseURL', u.baseURL);
  if (u.baseURLs !== undefined) {
    if (!Array.isArray(u.baseURLs) || u.baseURLs.length === 0) {
      throw new InvalidArgumentError('options.upstream.baseURLs', 'expected a non-empty array of URLs');
    }
    for (const [i, url] of u.baseURLs.entries()) checkBaseURL(`options.upstream.baseURLs[${i}]`, url);
  }
  if (u.apiKeyEnv !== undefined && (typeof u.apiKeyEnv !== 'string' || u.apiKeyEnv.length === 0)) {
    throw new InvalidArgumentError(
      'options.upstream.apiKeyEnv',
      'expected the NAME of an environment variable (e.g. "OPENAI_API_KEY"), not a key',
    );
  }
  checkPositive('options.upstream.timeoutMs', u.timeoutMs);
  checkPositive('options.upstream.concurrency', u.concurrency, true);
  checkPositive('options.upstream.requestsPerMinute', u.requestsPerMinute);
  checkPositive('options.upstream.tokensPerMinute', u.tokensPerMinute);
  if (u.extraBody !== undefined && (typeof u.extraBody !== 'object' || Array.isArray(u.extraBody))) {
    throw new InvalidArgumentError('options.upstream.extraBody', 'expected an object of body fields');
  }
  if (
    options.injectSkill !== undefined &&
    options.injectSkill !== 'system' &&
    options.injectSkill !== 'none'
  ) {
    throw new InvalidArgumentError(
      'options.injectSkill',
      `expected 'system' or 'none', got ${JSON.stringify(options.injectSkill)}`,
    );
  }
  if (options.skillTemplate !== undefined && typeof options.skillTemplate !== 'function') {
    throw new InvalidArgumentError('options.skillTemplate', 'expected a function (skill) => string');
  }
  if (
    options.port !== undefined &&
    !(Number.isInteger(options.port) && options.port >= 0 && options.port < 65536)
  ) {
    throw new InvalidArgumentError(
      'options.port',
      `expected an integer port in [0, 65535], got ${options.port}`,
    );
  }
}
