import { toJsonPath } from '@skillrl/core';
import type { ErrorObject } from 'ajv';

export interface SchemaIssue {
  /** JSON path of the failing value, e.g. `$.items[2].price`. */
  path: string;
  message: string;
}

/** One ajv error as a JSON path and a sentence; `required` and `additionalProperties` point at the property. */
export function describeAjvError(error: ErrorObject): SchemaIssue {
  const base = toJsonPath(error.instancePath);
  const p = error.params as Record<string, unknown>;
  const child = (key: unknown) => {
    const k = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(k) ? `${base}.${k}` : `${base}[${JSON.stringify(k)}]`;
  };
  switch (error.keyword) {
    case 'required':
      return { path: child(p.missingProperty), message: 'is required but missing' };
    case 'additionalProperties':
      return { path: child(p.additionalProperty), message: 'is not an allowed property' };
    case 'type':
      return { path: base, message: `expected ${String(p.type)}` };
    case 'enum':
      return {
        path: base,
        message: `expected one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { path: base, message: `expected ${JSON.stringify(p.allowedValue)}` };
    default:
      return { path: base, message: error.message ?? `fails ${error.keyword}` };
  }
}
