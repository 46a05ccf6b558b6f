import { InvalidArgumentError, type JsonValue } from '@skillrl/core';
import type { RunConfig } from '../config/config-types.js';

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
 * What a resume may change: how the run reaches its endpoints and how fast it goes, never what it
 * computes (the method, its sizes, the seed, the tasks), so a resumed run continues the same run.
 */
export const OVERRIDABLE_PATHS = [
  'agent.options',
  'evolve.generator.options',
  'concurrency',
  'health',
  'store',
] as const;

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
  const allowed = OVERRIDABLE_PATHS.some((p) => path === p || path.startsWith(`${p}.`));
  if (!allowed) {
    throw new InvalidArgumentError(
      '--set',
      `"${path}" cannot be changed on resume: a resumed run must compute what it started to. Allowed: ${OVERRIDABLE_PATHS.map((p) => `${p}[.…]`).join(', ')}`,
    );
  }
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
