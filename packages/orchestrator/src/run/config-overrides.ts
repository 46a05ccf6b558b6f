import type { RunConfig } from '@skillrl/core';
import { InvalidArgumentError, type JsonValue } from '@skillrl/core';

/** One `--set <path>=<value>` of `skillrl resume`: a dotted path into the config and the value to put there. */
export interface ConfigOverride {
  path: string;
  value: JsonValue;
}

/** An override as applied, with what it replaced (recorded in the run directory's `overrides.jsonl`). */
export interface AppliedOverride extends ConfigOverride {
  previous?: JsonValue;
}

/**
 * The sections a resume may change something under: the run's own `concurrency`, error budget and store
 * layout, and the endpoint options of its components (`RESUME_ENDPOINT_HOLDERS`, only the keys of
 * `RESUME_ENDPOINT_KEYS`). Never what the run computes (the method, its sizes, the seed, the tasks, the
 * model, its sampling and prompts), so a resumed run continues the same run.
 */
export const OVERRIDABLE_PATHS = [
  'agent.options',
  'adapter.options',
  'evolve.generator.options',
  'internalize.trainer.options',
  'concurrency',
  'health',
  'store',
  'workers',
] as const;

/**
 * Run settings a resume may change whole: how many episodes at once, when to stop, how files are laid out,
 * where episodes run (rollout workers give the same rollouts as this process).
 */
const RUN_SETTINGS = ['concurrency', 'health', 'store', 'workers'] as const;

/**
 * Where component options that reach an endpoint live: each component's `options`, and the objects inside
 * them that configure a client of their own (the LLM editor's `model`, its Tinker trainer, WebWalkerQA's
 * judge, GAIA's search backend).
 */
export const RESUME_ENDPOINT_HOLDERS = [
  'agent.options',
  'adapter.options',
  'evolve.generator.options',
  'internalize.trainer.options',
  'evolve.generator.options.model',
  'evolve.generator.options.trainer.options',
  'adapter.options.verifier.judge',
  'adapter.options.tools.web',
] as const;

/**
 * The options under a holder that a resume may change: where the endpoint is, which variable holds its key,
 * timeouts, retries, rate limits and how many requests at once. None of them changes a reply's content.
 */
export const RESUME_ENDPOINT_KEYS = [
  'baseURL',
  'baseURLs',
  'baseURLEnv',
  'apiKeyEnv',
  'timeoutMs',
  'requestTimeoutMs',
  'retry',
  'maxRetries',
  'futures',
  'concurrency',
  'requestsPerMinute',
  'tokensPerMinute',
  'http',
] as const;

const MODEL_KEYS = new Set(['model', 'baseModel', 'modelPath', 'tokenizer', 'loraRank', 'trainer']);
const SAMPLING_KEYS = new Set([
  'temperature',
  'topP',
  'topK',
  'maxTokens',
  'seed',
  'sendSeed',
  'stop',
  'stopTokens',
  'logprobs',
  'topLogprobs',
  'toolChoice',
  'extraBody',
  'frequencyPenalty',
  'presencePenalty',
  'returnTokenIds',
]);
const PROMPT_KEYS = new Set([
  'systemPrompt',
  'skillTemplate',
  'historyWindow',
  'mode',
  'actionParser',
  'template',
  'system',
  'rubric',
]);

const RULE =
  'only endpoints, keys, timeouts, retries, rate limits and concurrency can (they do not change what the run computes)';

/**
 * Why a resume may not change `path`, or undefined when it may: `concurrency`, `health.…`, `store.…`, and
 * under a component's options (`RESUME_ENDPOINT_HOLDERS`) only `RESUME_ENDPOINT_KEYS` and what is below them.
 */
export function resumeOverrideProblem(path: string): string | undefined {
  if (RUN_SETTINGS.some((p) => path === p || (p !== 'concurrency' && path.startsWith(`${p}.`)))) {
    return undefined;
  }
  let key: string | undefined;
  for (const holder of RESUME_ENDPOINT_HOLDERS) {
    if (!path.startsWith(`${holder}.`)) continue;
    const first = path.slice(holder.length + 1).split('.')[0] as string;
    if ((RESUME_ENDPOINT_KEYS as readonly string[]).includes(first)) return undefined;
    // The innermost holder names the option (`model` of `evolve.generator.options`, not its `baseURL`).
    key = first;
  }
  // Outside component options (`internalize.steps`, `seed`) the key alone says little: no specific advice.
  const advice =
    key === undefined
      ? 'start a new run to change it (`skillrl run <config> --set …`)'
      : MODEL_KEYS.has(key)
        ? 'start a new run for another model'
        : SAMPLING_KEYS.has(key)
          ? 'start a new run for other sampling options'
          : PROMPT_KEYS.has(key)
            ? 'start a new run for another prompt'
            : 'start a new run to change it (`skillrl run <config> --set …`)';
  return (
    `"${path}" cannot be changed on resume: ${RULE}; ${advice}. Allowed: concurrency, health.…, store.…, workers.…, ` +
    `and ${RESUME_ENDPOINT_KEYS.join(', ')} under a component's options (e.g. agent.options.baseURL, ` +
    'evolve.generator.options.model.baseURL)'
  );
}

/**
 * `agent.options.baseURL=http://…` → `{ path, value }`; the value is JSON when it parses, else the text.
 * `anyPath` is `skillrl run --set`'s rule: a new run may change anything (the result is checked like the
 * config file); without it, resume's `OVERRIDABLE_PATHS`.
 */
export function parseOverride(argument: string, options: { anyPath?: boolean } = {}): ConfigOverride {
  const eq = argument.indexOf('=');
  const path = eq === -1 ? '' : argument.slice(0, eq).trim();
  if (eq === -1 || !/^[A-Za-z_$][\w$-]*(\.[\w$-]+)*$/.test(path)) {
    throw new InvalidArgumentError(
      '--set',
      `expected <dotted.path>=<value> (e.g. agent.options.baseURL=http://127.0.0.1:8000/v1), got "${argument}"`,
    );
  }
  const text = argument.slice(eq + 1);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    value = text;
  }
  if (!options.anyPath) checkOverridable(path);
  return { path, value };
}

function checkOverridable(path: string): void {
  const problem = resumeOverrideProblem(path);
  if (problem) throw new InvalidArgumentError('--set', problem);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `config` with the overrides applied in order, and what each replaced. */
export function applyOverrides(
  config: RunConfig,
  overrides: readonly ConfigOverride[],
  options: { anyPath?: boolean } = {},
): { config: RunConfig; applied: AppliedOverride[] } {
  const out = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const applied: AppliedOverride[] = [];
  for (const override of overrides) {
    if (!options.anyPath) checkOverridable(override.path);
    const keys = override.path.split('.');
    let node: Record<string, unknown> | unknown[] = out;
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i] as string;
      let child: unknown = Array.isArray(node) ? node[Number(key)] : node[key];
      // `agent: openai` names a component by string; options need its object form.
      if (typeof child === 'string' && keys[i + 1] === 'options') child = { name: child };
      if (!isObject(child) && !Array.isArray(child)) child = {};
      if (Array.isArray(node)) node[Number(key)] = child;
      else node[key] = child;
      node = child as Record<string, unknown> | unknown[];
    }
    const last = keys[keys.length - 1] as string;
    const previous = Array.isArray(node) ? node[Number(last)] : node[last];
    if (Array.isArray(node)) node[Number(last)] = override.value;
    else node[last] = override.value;
    applied.push({
      path: override.path,
      value: override.value,
      ...(previous !== undefined ? { previous: previous as JsonValue } : {}),
    });
  }
  return { config: out as unknown as RunConfig, applied };
}
