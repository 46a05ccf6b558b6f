import type { AdvantageEstimator, EstimatorFactory, JsonObject, JsonValue } from '@skillrl/core';
import { InvalidArgumentError, RegistryError } from '@skillrl/core';
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

const PLUGIN_EXPORTS: Record<Exclude<ComponentKind, 'estimator'>, string[]> = {
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
    const mod = await importFromConfig(s.package, ctx.configPath, `${kind} "${s.name ?? s.package}"`);
    const candidates = s.export ? [s.export] : PLUGIN_EXPORTS[kind];
    const key = candidates.find((k) => mod[k] !== undefined);
    if (key === undefined) {
      throw new InvalidArgumentError(
        kind,
        `package "${s.package}" exports none of ${candidates.join(', ')}; name the export with "export"`,
      );
    }
    const exportValue = mod[key];
    const value = (
      typeof exportValue === 'function'
        ? await (exportValue as (o: JsonObject, c: ComponentContext) => unknown)(s.options, ctx)
        : exportValue
    ) as ComponentTypes[K];
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
  const mod = await importEntry(entry as BuiltinEntry<unknown>, kind, name);
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
}

function estimatorTable(mod: ModuleNamespace): Record<string, EstimatorFactory> {
  const chosen = mod.estimators ?? mod.default;
  if (chosen && typeof chosen === 'object') return chosen as Record<string, EstimatorFactory>;
  return {};
}

/**
 * Resolves an estimator: a name in `@skillrl/advantage`'s registry, or `{ package, name }` — the package
 * exports `estimators: { [name]: (options) => estimator }` (depending on `@skillrl/core` alone), which are
 * registered under their names before use.
 */
export async function resolveEstimator(spec: ComponentSpec, configPath: string): Promise<ResolvedEstimator> {
  const s = normalise(spec);
  const advantage = await importBuiltin('@skillrl/advantage', `estimator "${s.name ?? s.package}"`);
  const register = advantage.registerEstimator as (name: string, factory: EstimatorFactory) => void;
  const create = advantage.createEstimator as (name: string, options?: JsonObject) => AdvantageEstimator;
  let name = s.name;
  let source = `registry:${name}`;
  if (s.package !== undefined) {
    const mod = await importFromConfig(s.package, configPath, `estimator "${s.name ?? s.package}"`);
    const table = estimatorTable(mod);
    const names = Object.keys(table);
    if (names.length === 0) {
      throw new InvalidArgumentError(
        'estimator.package',
        `"${s.package}" exports no estimators; export \`estimators: { "<name>": (options) => estimator }\``,
      );
    }
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
  // Creating once here surfaces an unknown name or bad options before any rollout.
  create(resolvedName, s.options);
  return { name: resolvedName, source, create: () => create(resolvedName, s.options) };
}
