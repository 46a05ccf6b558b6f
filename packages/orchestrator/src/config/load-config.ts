import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { LoadedConfig, RunConfig } from '@skillrl/core';
import { compileSchema, configSchema, ValidationError, type ValidationIssue } from '@skillrl/core';
import { parse as parseYaml } from 'yaml';
import { checkConfigSemantics } from './check-config-semantics.js';
import { checkEndpointUrls } from './check-endpoint-urls.js';

// Compiled once, with core's path-naming messages (the same wording as every other skillrl error).
const configChecker = compileSchema<RunConfig>(configSchema, 'config');

/**
 * `agent: { program: {...} }` is the program agent's short form: the same as
 * `agent: { name: program, options: {...} }`. Anything else is returned as it is.
 */
export function normalizeConfig(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const agent = (value as { agent?: unknown }).agent;
  if (agent === null || typeof agent !== 'object' || Array.isArray(agent) || !('program' in agent))
    return value;
  const { program, ...rest } = agent as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return value; // the schema names the extra fields
  return { ...(value as object), agent: { name: 'program', options: program } };
}

/** Every problem with a parsed config, by JSON path: schema first, then the checks a schema cannot express. */
export function checkConfig(input: unknown): ValidationIssue[] {
  const value = normalizeConfig(input);
  const issues: ValidationIssue[] = configChecker.check(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    issues.push(...checkConfigSemantics(value as Partial<RunConfig>));
    issues.push(...checkEndpointUrls(value as Partial<RunConfig>));
  }
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Throws a `ValidationError` listing every problem by path, or returns the config typed. */
export function parseConfig(input: unknown): RunConfig {
  const value = normalizeConfig(input);
  const issues = checkConfig(value);
  if (issues.length > 0) throw new ValidationError('config', issues);
  return value as RunConfig;
}

/** The JSON Schema's problems alone: a config without them has the types every later check relies on. */
export function checkConfigSchema(value: unknown): ValidationIssue[] {
  return configChecker.check(normalizeConfig(value));
}

/** Reads and parses a YAML or JSON config file (YAML is a superset of JSON), without validating it. */
export function readConfigFile(file: string): { path: string; value: unknown } {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ValidationError('config', [{ path: '$', message: `cannot read ${path}` }], { cause });
  }
  let value: unknown;
  try {
    value = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new ValidationError(
      'config',
      [{ path: '$', message: `${path} is not valid YAML/JSON: ${reason}` }],
      {
        cause,
      },
    );
  }
  return { path, value: normalizeConfig(value) };
}

/** Reads a YAML or JSON config file and validates it before anything runs. */
export function loadConfig(file: string): LoadedConfig {
  const { path, value } = readConfigFile(file);
  return { config: parseConfig(value), path };
}
