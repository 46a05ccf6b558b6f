import type { ValidationIssue } from '../errors/validation-error.js';

/**
 * What one option must be: the problems with a value that is there (`undefined` is never passed: an option
 * left out takes its default), each at `path` or below it.
 */
export type OptionRule = (value: unknown, path: string) => ValidationIssue[];

/**
 * One rule per option of T, each key once: the compiler fails when T gains or loses an option, so a
 * package's vocabulary (the keys of its table) cannot drift from the options its factory reads.
 */
export type OptionRules<T> = { readonly [K in keyof Required<T>]: OptionRule };

const shown = (value: unknown): string => {
  if (typeof value === 'function') return 'a function';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A rule from a test and what the value should have been. */
export function optionRule(ok: (value: unknown) => boolean, expected: string): OptionRule {
  return (value, path) => (ok(value) ? [] : [{ path, message: `expected ${expected}, got ${shown(value)}` }]);
}

/** Any value: the factory reads it and checks it itself (a template, a nested option the package owns). */
export const anyOption: OptionRule = () => [];

export const booleanOption: OptionRule = optionRule((v) => typeof v === 'boolean', 'true or false');

/** A non-empty string, or one of `values`. */
export function stringOption(values?: readonly string[]): OptionRule {
  return values
    ? optionRule(
        (v) => typeof v === 'string' && values.includes(v),
        `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
      )
    : optionRule((v) => typeof v === 'string' && v !== '', 'a non-empty string');
}

/** An integer >= `min`. */
export function integerOption(min: number): OptionRule {
  return optionRule((v) => Number.isInteger(v) && (v as number) >= min, `an integer >= ${min}`);
}

/** A finite number that passes `ok` (`want` says which: "a number > 0"). */
export function numberOption(want = 'a finite number', ok: (n: number) => boolean = () => true): OptionRule {
  return optionRule((v) => typeof v === 'number' && Number.isFinite(v) && ok(v), want);
}

/** A seed: a safe integer or a string (core's `Seed`). */
export const seedOption: OptionRule = optionRule(
  (v) => typeof v === 'string' || Number.isSafeInteger(v),
  'a safe integer or a string',
);

/** A list of non-empty strings. */
export const stringListOption: OptionRule = optionRule(
  (v) => Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== ''),
  'a list of non-empty strings',
);

/** An object whose values each pass `rule` (a map of names: split → file). */
export function recordOption(rule: OptionRule, want: string): OptionRule {
  return (value, path) =>
    isPlainObject(value)
      ? Object.entries(value).flatMap(([key, v]) => rule(v, `${path}.${key}`))
      : [{ path, message: `expected ${want}, got ${shown(value)}` }];
}

/** A plain object (its keys the package's to read). */
export const objectOption: OptionRule = optionRule(isPlainObject, 'an object');

/**
 * What only code can pass (a function, a loaded catalogue, weights): a config file, which holds JSON, cannot
 * give it, and the message says so.
 */
export function codeOption(kind: 'function' | 'object', what: string): OptionRule {
  return optionRule(
    kind === 'function' ? (v) => typeof v === 'function' : (v) => typeof v === 'object' && v !== null,
    `${what} (given in code; a config file cannot hold one)`,
  );
}

/** The first of `rules` that the value passes; else one problem saying what would do (`want`). */
export function eitherOption(want: string, ...rules: OptionRule[]): OptionRule {
  return (value, path) => {
    const found = rules.map((rule) => rule(value, path));
    if (found.some((issues) => issues.length === 0)) return [];
    // One rule's own problems when only one fits the value's type (an object with a bad key inside).
    const nested = found.filter((issues) => issues.some((i) => i.path !== path));
    if (nested.length === 1) return nested[0] as ValidationIssue[];
    return [{ path, message: `expected ${want}, got ${shown(value)}` }];
  };
}
