import { closest, distance } from 'fastest-levenshtein';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { OptionRule } from './option-rule.js';

const fold = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/**
 * The option `name` was probably meant to be: the closest of `known` when it is near enough to be a
 * misspelling (edits up to a third of its length, at most 3; case, `_` and `-` ignored), else undefined.
 */
export function suggestOption(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const same = known.find((k) => fold(k) === fold(name));
  if (same !== undefined) return same;
  const best = closest(
    name.toLowerCase(),
    known.map((k) => k.toLowerCase()),
  );
  const allowed = name.length <= 2 ? 0 : Math.min(3, Math.ceil(name.length / 3));
  if (distance(name.toLowerCase(), best) > allowed) return undefined;
  return known.find((k) => k.toLowerCase() === best);
}

/** An option `what` does not have, with the one meant when one is close. */
export function unknownOptionIssue(
  path: string,
  name: string,
  known: readonly string[],
  what: string,
): ValidationIssue {
  const meant = suggestOption(name, known);
  const hint =
    meant !== undefined
      ? `did you mean ${meant}?`
      : known.length === 0
        ? 'it takes no options'
        : `expected one of ${known.join(', ')}`;
  return { path: `${path}.${name}`, message: `unknown option of the ${what}; ${hint}` };
}

/**
 * Every problem with a component's options, by path, in one pass: each key that is not one of `rules`'
 * (with a "did you mean"), and each value its rule refuses. `what` names the component in messages
 * ("household adapter"); `path` is where the options sit (`$.adapter.options` in a config, `options` in code).
 * `required` names the options that must be there, each with what it is.
 */
export function checkOptions(
  options: unknown,
  rules: Readonly<Record<string, OptionRule>>,
  path: string,
  what: string,
  required: Readonly<Record<string, string>> = {},
): ValidationIssue[] {
  if (options === undefined && Object.keys(required).length === 0) return [];
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    return [{ path, message: `expected an object of the ${what}'s options` }];
  }
  const known = Object.keys(rules);
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(options)) {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (rule === undefined) issues.push(unknownOptionIssue(path, key, known, what));
    else if (value !== undefined) issues.push(...rule(value, `${path}.${key}`));
  }
  for (const [key, means] of Object.entries(required)) {
    if ((options as Record<string, unknown>)[key] === undefined) {
      issues.push({ path: `${path}.${key}`, message: `is required: ${means}` });
    }
  }
  return issues;
}

/**
 * A component package's exported check: `(options, path?, use?)` → every problem by path. `use` (how a config
 * uses the component) is accepted for the orchestrator's call and unused by a plain rule table.
 */
export type OptionCheck = (options: unknown, path?: string, use?: unknown) => ValidationIssue[];

/** The check of a rule table, its options at `defaultPath` unless the caller says where. */
export function optionCheck(
  rules: Readonly<Record<string, OptionRule>>,
  what: string,
  defaultPath: string,
  required: Readonly<Record<string, string>> = {},
): OptionCheck {
  return (options, path = defaultPath) => checkOptions(options, rules, path, what, required);
}

/** An option that is itself an object of options (`tools`, `retry`): its keys and values checked the same way. */
export function nestedOptions(rules: Readonly<Record<string, OptionRule>>, what: string): OptionRule {
  return (value, path) => checkOptions(value, rules, path, what);
}

/** Throws a `ValidationError` listing every problem `checkOptions` found (a factory's check), if any. */
export function throwOnOptionIssues(issues: readonly ValidationIssue[], what: string): void {
  if (issues.length > 0) throw new ValidationError(`${what} options`, [...issues]);
}
