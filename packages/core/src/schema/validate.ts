import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { CurriculumState, ValidationResult } from '../contracts/curriculum.js';
import type { RunEvent } from '../contracts/events.js';
import type { Skill } from '../contracts/skill.js';
import type { Task } from '../contracts/task.js';
import type { Trajectory } from '../contracts/trajectory.js';
import type { Usage } from '../contracts/usage.js';
import type { Verdict } from '../contracts/verdict.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { type SchemaKind, schemas } from './schemas.js';

/** The TypeScript type each schema kind describes. */
export interface SchemaTypes {
  usage: Usage;
  task: Task;
  verdict: Verdict;
  skill: Skill;
  trajectory: Trajectory;
  'validation-result': ValidationResult;
  'curriculum-state': CurriculumState;
  event: RunEvent;
}

let ajv: Ajv | undefined;
const compiled = new Map<SchemaKind, ValidateFunction>();

function getAjv(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
    addFormats(ajv);
    for (const schema of Object.values(schemas)) ajv.addSchema(schema as object);
  }
  return ajv;
}

function getValidator(kind: SchemaKind): ValidateFunction {
  let fn = compiled.get(kind);
  if (!fn) {
    const schema = schemas[kind];
    if (!schema) {
      throw new InvalidArgumentError(
        'schema kind',
        `"${String(kind)}"; expected one of ${Object.keys(schemas).join(', ')}`,
      );
    }
    fn = getAjv().getSchema(schema.$id) as ValidateFunction;
    compiled.set(kind, fn);
  }
  return fn;
}

/** `/steps/0/reward` → `$.steps[0].reward` */
export function toJsonPath(instancePath: string): string {
  if (!instancePath) return '$';
  return `$${instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) =>
      /^\d+$/.test(part)
        ? `[${part}]`
        : /^[A-Za-z_$][\w$]*$/.test(part)
          ? `.${part}`
          : `[${JSON.stringify(part)}]`,
    )
    .join('')}`;
}

function describe(error: ErrorObject): ValidationIssue {
  let path = toJsonPath(error.instancePath);
  const p = error.params as Record<string, unknown>;
  let message: string;
  switch (error.keyword) {
    case 'required':
      path = `${path === '$' ? '$' : path}.${String(p.missingProperty)}`;
      message = 'is required but missing';
      break;
    case 'type':
      message = `expected ${String(p.type).split(',').join(' or ')}`;
      break;
    case 'enum':
      message = `expected one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'const':
      message = `expected ${JSON.stringify(p.allowedValue)}`;
      break;
    case 'additionalProperties':
      path = `${path}.${String(p.additionalProperty)}`;
      message = 'is not a known field (check its spelling)';
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      message = `expected a number ${String(p.comparison)} ${String(p.limit)}`;
      break;
    case 'minLength':
      message = `expected a string of at least ${String(p.limit)} characters`;
      break;
    case 'maxLength':
      message = `expected a string of at most ${String(p.limit)} characters`;
      break;
    case 'pattern':
      message = `expected a string matching /${String(p.pattern)}/`;
      break;
    case 'format':
      message = `expected a ${String(p.format)} string`;
      break;
    default:
      message = `expected a value that ${error.message ?? `satisfies ${error.keyword}`}`;
  }
  return { path, message };
}

function issuesOf(fn: ValidateFunction, value: unknown): ValidationIssue[] {
  if (fn(value)) return [];
  const issues = (fn.errors ?? []).filter((e) => e.keyword !== 'if').map(describe);
  // ajv can report the same problem through several branches; keep each once.
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The problems with `value` as a `kind`, by JSON path; empty when it is valid. */
export function checkSchema(kind: SchemaKind, value: unknown): ValidationIssue[] {
  return issuesOf(getValidator(kind), value);
}

export interface SchemaChecker<T> {
  /** Every problem with `value`, by JSON path; empty when it is valid. */
  check(value: unknown): ValidationIssue[];
  /** Returns `value` typed, or throws a `ValidationError` naming each failing path. */
  validate(value: unknown): T;
}

/**
 * Compiles a schema of your own (a config file, a plugin's options) once, with the same error messages as
 * `validate`: packages that validate their own inputs should not each format ajv's errors again.
 */
export function compileSchema<T>(schema: object, kind: string): SchemaChecker<T> {
  const ajvForUser = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajvForUser);
  const fn = ajvForUser.compile(schema);
  return {
    check: (value) => issuesOf(fn, value),
    validate(value) {
      const issues = issuesOf(fn, value);
      if (issues.length > 0) throw new ValidationError(kind, issues);
      return value as T;
    },
  };
}

/** Returns `value` typed as `kind`, or throws a `ValidationError` naming each failing JSON path. */
export function validate<K extends SchemaKind>(kind: K, value: unknown): SchemaTypes[K] {
  const issues = checkSchema(kind, value);
  if (issues.length > 0) throw new ValidationError(kind, issues);
  return value as SchemaTypes[K];
}

export function isValid<K extends SchemaKind>(kind: K, value: unknown): value is SchemaTypes[K] {
  return getValidator(kind)(value) === true;
}
