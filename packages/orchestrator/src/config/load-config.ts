import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { toJsonPath, ValidationError, type ValidationIssue } from '@skillrl/core';
import Ajv, { type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { checkConfigSemantics } from './check-config-semantics.js';
import { configSchema } from './config-schema.js';
import type { LoadedConfig, RunConfig } from './config-types.js';

let compiled: ReturnType<Ajv['compile']> | undefined;

function schemaValidator(): ReturnType<Ajv['compile']> {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    compiled = ajv.compile(configSchema);
  }
  return compiled;
}

function describe(error: ErrorObject): ValidationIssue {
  let path = toJsonPath(error.instancePath);
  const p = error.params as Record<string, unknown>;
  let message: string;
  switch (error.keyword) {
    case 'required':
      path = `${path}.${String(p.missingProperty)}`;
      message = 'is required but missing';
      break;
    case 'additionalProperties':
      path = `${path}.${String(p.additionalProperty)}`;
      message = 'is not a known field (check its spelling against the config reference)';
      break;
    case 'type':
      message = `expected ${String(p.type).replace(',', ' or ')}`;
      break;
    case 'enum':
      message = `expected one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'minimum':
    case 'maximum':
      message = `expected a number ${String(p.comparison)} ${String(p.limit)}`;
      break;
    case 'minLength':
      message = `expected a string of at least ${String(p.limit)} character(s)`;
      break;
    case 'pattern':
      message = `expected a string matching /${String(p.pattern)}/`;
      break;
    default:
      message = error.message ?? `fails ${error.keyword}`;
  }
  return { path, message };
}

/** Every problem with a parsed config, by JSON path: schema first, then the checks a schema cannot express. */
export function checkConfig(value: unknown): ValidationIssue[] {
  const fn = schemaValidator();
  const issues: ValidationIssue[] = fn(value) ? [] : (fn.errors ?? []).map(describe);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    issues.push(...checkConfigSemantics(value as Partial<RunConfig>));
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
export function parseConfig(value: unknown): RunConfig {
  const issues = checkConfig(value);
  if (issues.length > 0) throw new ValidationError('config', issues);
  return value as RunConfig;
}

/** Reads a YAML or JSON config file (YAML is a superset of JSON) and validates it before anything runs. */
export function loadConfig(file: string): LoadedConfig {
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
  return { config: parseConfig(value), path };
}
