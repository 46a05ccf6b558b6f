import type { EstimatorFactory } from '@skillrl/core';
import { PluginShapeError } from '@skillrl/core';
import type { ModuleNamespace } from './import-package.js';
import { listExports } from './plugin-shape.js';

const ESTIMATOR_TABLE = '{ "<name>": (options) => AdvantageEstimator }';

const HINT =
  'Export the table as `export const estimators = { "<name>": factory }` (or as the default export, or `{ estimators }` as the default export), or name the export to read with "export" in the config (a table, or one factory with "name").';

/** A package's estimators as the config picks them, and the export they came from. */
export interface EstimatorExports {
  /** The export read: `estimators`, `default`, `default.estimators`, or the config's `export`. */
  key: string;
  table: Record<string, EstimatorFactory>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * One export as a table of factories: a table itself, `{ estimators: table }` (ESM `export default {
 * estimators }`, `module.exports = { estimators: { ... } }`, tsc's `exports.default = { estimators }`), or
 * one factory, registered under `name`. Undefined when it is none of these; throws when it is a table with
 * entries that are not functions.
 */
function asTable(
  value: unknown,
  key: string,
  name: string | undefined,
  fail: (key: string, expected: string) => never,
): EstimatorExports | undefined {
  if (typeof value === 'function') {
    if (name === undefined) {
      fail(
        key,
        `table of estimator factories ${ESTIMATOR_TABLE} (it is one factory: give "name" in the config)`,
      );
    }
    return { key, table: { [name as string]: value as EstimatorFactory } };
  }
  if (!isObject(value)) return undefined;
  if (isObject(value.estimators)) return asTable(value.estimators, `${key}.estimators`, name, fail);
  const names = Object.keys(value);
  if (names.length === 0) return undefined;
  const bad = names.filter((n) => typeof value[n] !== 'function');
  if (bad.length === names.length) return undefined;
  if (bad.length > 0) {
    fail(
      key,
      `table of estimator factories ${ESTIMATOR_TABLE}: ${bad.map((n) => `"${n}" is not a function`).join(', ')}`,
    );
  }
  return { key, table: value as Record<string, EstimatorFactory> };
}

/**
 * A package's estimators, read like an adapter's export: the config's `export` when it names one, else
 * `estimators`, else the default export (a table, or `{ estimators }`). Returns undefined when the package
 * exports none but may have registered its own (`registerEstimator` when it loads); throws a
 * PluginShapeError when the export the config names is not a table, or no export is and there is no `name`
 * to look up.
 */
export function estimatorTable(
  mod: ModuleNamespace,
  packageName: string,
  what: string,
  spec: { export?: string; name?: string } = {},
): EstimatorExports | undefined {
  const fail = (key: string, expected: string): never => {
    throw new PluginShapeError(what, packageName, key, expected, listExports(mod), { hint: HINT });
  };
  if (spec.export !== undefined) {
    const value = mod[spec.export];
    if (value === undefined)
      fail(spec.export, `table of estimator factories ${ESTIMATOR_TABLE} (no such export)`);
    const found = asTable(value, spec.export, spec.name, fail);
    if (found === undefined) fail(spec.export, `table of estimator factories ${ESTIMATOR_TABLE}`);
    return found;
  }
  for (const key of ['estimators', 'default']) {
    if (mod[key] === undefined) continue;
    const found = asTable(mod[key], key, spec.name, fail);
    if (found !== undefined) return found;
  }
  if (spec.name === undefined) {
    fail('estimators', `table of estimator factories ${ESTIMATOR_TABLE}`);
  }
  return undefined;
}
