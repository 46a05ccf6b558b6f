import type { JsonObject, JsonValue } from '@skillrl/core';

/**
 * Where a value lives in a JSONL row: a key (`"Final answer"`), a dotted path into nested objects
 * (`"info.type"`), or several of these tried in order — the first present wins, which is how two spellings of
 * one dataset (`question` / `Question`) are both accepted. A key that itself contains dots is tried whole
 * before it is read as a path.
 */
export type FieldSpec = string | readonly string[];

export interface FieldValue {
  /** The spelling that matched, for messages. */
  key: string;
  value: JsonValue;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readPath(row: JsonObject, path: string): JsonValue | undefined {
  if (Object.hasOwn(row, path)) return row[path];
  let current: JsonValue | undefined = row;
  for (const part of path.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/** The first spelling present in the row (`null` counts as present), or `undefined`. */
export function readField(row: JsonObject, spec: FieldSpec): FieldValue | undefined {
  for (const key of typeof spec === 'string' ? [spec] : spec) {
    const value = readPath(row, key);
    if (value !== undefined) return { key, value };
  }
  return undefined;
}

/** The spellings of a spec, joined for a message: `question|Question`. */
export function describeField(spec: FieldSpec): string {
  return typeof spec === 'string' ? spec : spec.join('|');
}

export { isObject as isJsonObject };
