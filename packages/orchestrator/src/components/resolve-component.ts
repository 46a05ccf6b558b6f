import type {
  AdvantageEstimator,
  EstimatorBatchOverrides,
  EstimatorFactory,
  JsonObject,
  JsonValue,
} from '@skillrl/core';
import { InvalidArgumentError, RegistryError } from '@skillrl/core';
import { readBatchOverrides } from '../config/check-estimator-overrides.js';
import type { ComponentSpec } from '../config/config-types.js';
import { BUILTIN_COMPONENTS, type BuiltinEntry, importEntry } from './builtin-components.js';
import type {
  ComponentContext,
  ComponentKind,
  ComponentTypes,
  Persistence,
  ResolvedComponent,
} from './component-types.js';
import { importBuiltin, importFromConfig, type ModuleNamespace } from './import-package.js';
import { contractOf, listExports, shapeProblem } from './plugin-shape.js';
import { PluginShapeError } from './plugin-shape-error.js';

/** The exports tried, in order, when a plugin spec names none. */
export const PLUGIN_EXPORTS: Record<Exclude<ComponentKind, 'estimator'>, string[]> = {
  adapter: ['default', 'adapter', 'createAdapter'],
  agent: ['default', 'createAgent'],
  generator: ['default', 'createGenerator'],
  trainer: ['default', 'createTrainer'],
};

function normalise(spec: ComponentSpec): {
  name?: string;
  package?: string;
  export?: string;
  options: JsonObject;
} {
  if (typeof spec === 'string') return { name: spec, options: {} };
  return { ...spec, options: spec.options ?? {} };
}

/** A plugin's own state hooks: `save(dir)`/`load(dir)`, or `toJSON()`/`restore(json)`. */
function pluginPersistence<T>(value: T): Persistence<T> | undefined {
  const v = value as Record<string, unknown>;
  type Hooks = Record<string, (arg: unknown) => unknown>;
  if (typeof v.save === 'function' && typeof v.load === 'function') {
    return {
      kind: 'dir',
      save: async (component, dir) => {
        await (component as unknown as Hooks).save?.(dir);
      },
      load: async (dir, component) =>
        ((await (component as unknown as Hooks).load?.(dir)) as T | undefined) ?? component,
    };
  }
  if (typeof v.toJSON === 'function' && typeof v.restore === 'function') {
    return {
      kind: 'json',
      get: (component) => (component as unknown as { toJSON(): JsonValue }).toJSON(),
      set: async (component, json) => {
        await (component as unknown as Hooks).restore?.(json);
      },
    };
  }
  return undefined;
}

/**
 * Resolves an adapter, agent, generator or trainer named in a config: a built-in registry name (its package
 * imported on demand) or a package/module whose export is a factory `(options, context) => component` or the
 * component itself.
 */
export async function resolveComponent<K extends Exclude<ComponentKind, 'estimator'>>(
  kind: K,
  spec: ComponentSpec,
  ctx: ComponentContext,
): Promise<ResolvedComponent<ComponentTypes[K]>> {
  const s = normalise(spec);
  if (s.package !== undefined) {
    const what = `${kind} "${s.name ?? s.package}"`;
    const mod = await importFromConfig(s.package, ctx.configPath, what);
    const candidates = s.export ? [s.export] : PLUGIN_EXPORTS[kind];
    const key = candidates.find((k) => mod[k] !== undefined);
    if (key === undefined) {
      throw new PluginShapeError(
        what,
        s.package,
        candidates.join('|'),
        `${contractOf(kind)} (no export ${candidates.map((c) => `"${c}"`).join(', ')})`,
        listExports(mod),
      );
    }
    const exportValue = mod[key];
    const isFactory = typeof exportValue === 'function' && shapeProblem(kind, exportValue) !== undefined;
    const value = (
      isFactory
        ? await (exportValue as (o: JsonObject, c: ComponentContext) => unknown)(s.options, ctx)
        : exportValue
    ) as ComponentTypes[K];
    const problem = shapeProblem(kind, value);
    if (problem !== undefined) {
      throw new PluginShapeError(
        what,
        s.package,
        key,
        isFactory
          ? `factory of a ${problem} (called with the options and context, it returned that)`
          : problem,
        listExports(mod),
      );
    }
    const persistence = pluginPersistence(value);
    return {
      value,
      source: `package:${s.package}#${key}`,
      options: s.options,
      ...(persistence ? { persistence } : {}),
    };
  }
  const name = s.name as string;
  const table = BUILTIN_COMPONENTS[kind] as Record<string, BuiltinEntry<ComponentTypes[K]>>;
  const entry = table[name];
  if (!entry) throw new RegistryError(kind, name, 'unknown', Object.keys(table));
  const mod = await importEntry(entry as BuiltinEntry<unknown>, kind, name, ctx.configPath);
  const value = await entry.create(mod, s.options, ctx);
  const persistence = entry.persistence?.(mod) ?? pluginPersistence(value);
  return { value, source: `registry:${name}`, options: s.options, ...(persistence ? { persistence } : {}) };
}

export interface ResolvedEstimator {
  name: string;
  source: string;
  /**
   * Creates the estimator with the config's options. The method's per-unit inputs (λ per sample, the
   * previous generation's means) travel in the batch, never as options, so a package's estimator gets
   * exactly what a built-in one gets.
   */
  create(): AdvantageEstimator;
  /**
   * The batch fields that replace options of this estimator, as its factory declares them (`{}` when it
   * declares none): with the fields the method fills, what `checkEstimatorOverrides` refuses in a config.
   */
  batchOverrides: EstimatorBatchOverrides;
}

const ESTIMATOR_TABLE = '{ "<name>": (options) => AdvantageEstimator }';

/** A package's estimators: `export const estimators = { name: factory }` (or the same as its default export). */
export function estimatorTable(
  mod: ModuleNamespace,
  packageName: string,
  what: string,
): Record<string, EstimatorFactory> {
  const key = mod.estimators !== undefined ? 'estimators' : 'default';
  const chosen = mod[key];
  if (chosen === null || typeof chosen !== 'object' || Object.keys(chosen).length === 0) {
    throw new PluginShapeError(
      what,
      packageName,
      'estimators',
      `table of estimator factories ${ESTIMATOR_TABLE}`,
      listExports(mod),
    );
  }
  const table = chosen as Record<string, unknown>;
  const bad = Object.keys(table).filter((n) => typeof table[n] !== 'function');
  if (bad.length > 0) {
    throw new PluginShapeError(
      what,
      packageName,
      key,
      `table of estimator factories ${ESTIMATOR_TABLE}: ${bad.map((n) => `"${n}" is not a function`).join(', ')}`,
      listExports(mod),
    );
  }
  return table as Record<string, EstimatorFactory>;
}

/**
 * Resolves an estimator: a name in `@skillrl/advantage`'s registry, or `{ package, name }` — the package
 * exports `estimators: { [name]: (options) => estimator }` (depending on `@skillrl/core` alone), which are
 * registered under their names before use.
 */
export async function resolveEstimator(spec: ComponentSpec, configPath: string): Promise<ResolvedEstimator> {
  const s = normalise(spec);
  const advantage = await importBuiltin(
    '@skillrl/advantage',
    `estimator "${s.name ?? s.package}"`,
    configPath,
  );
  const register = advantage.registerEstimator as (name: string, factory: EstimatorFactory) => void;
  const create = advantage.createEstimator as (name: string, options?: JsonObject) => AdvantageEstimator;
  let name = s.name;
  let source = `registry:${name}`;
  if (s.package !== undefined) {
    const what = `estimator "${s.name ?? s.package}"`;
    const mod = await importFromConfig(s.package, configPath, what);
    const table = estimatorTable(mod, s.package, what);
    const names = Object.keys(table);
    for (const [n, factory] of Object.entries(table)) register(n, factory);
    if (name === undefined) {
      if (names.length > 1) {
        throw new InvalidArgumentError(
          'estimator.name',
          `"${s.package}" registers ${names.join(', ')}: pick one`,
        );
      }
      name = names[0] as string;
    }
    source = `package:${s.package}#${name}`;
  }
  const resolvedName = name as string;
  // Creating once here surfaces an unknown name, bad options or a wrong shape before any rollout.
  const made = create(resolvedName, s.options);
  const problem = shapeProblem('estimator', made);
  if (problem !== undefined && s.package !== undefined) {
    throw new PluginShapeError(
      `estimator "${resolvedName}"`,
      s.package,
      `estimators.${resolvedName}`,
      `factory of an ${problem} (called with the options, it returned that)`,
      Object.keys(made ?? {}).map((k) => `${k} (${typeof (made as unknown as Record<string, unknown>)[k]})`),
    );
  }
  // An older @skillrl/advantage has no declarations to read: nothing is overridden as far as it says.
  const declared = advantage.estimatorBatchOverrides as ((name: string) => unknown) | undefined;
  const batchOverrides = readBatchOverrides(
    typeof declared === 'function' ? declared(resolvedName) : undefined,
  );
  return { name: resolvedName, source, create: () => create(resolvedName, s.options), batchOverrides };
}
