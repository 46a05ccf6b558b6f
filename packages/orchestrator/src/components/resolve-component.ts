import type {
  AdvantageEstimator,
  ComponentContext,
  ComponentKind,
  ComponentSpec,
  ComponentTypes,
  EstimatorBatchOverrides,
  EstimatorFactory,
  JsonObject,
  JsonValue,
  Persistence,
  ResolvedComponent,
} from '@skillrl/core';
import { InvalidArgumentError, PluginShapeError, RegistryError, ValidationError } from '@skillrl/core';
import { readBatchOverrides } from '../config/check-estimator-overrides.js';
import { BUILTIN_COMPONENTS } from './builtin-components.js';
import { builtinPersistence, checkBuiltinOptions, createBuiltin, importEntry } from './call-builtin.js';
import { estimatorTable } from './estimator-exports.js';
import { importBuiltin, importFromConfig, type ModuleNamespace } from './import-package.js';
import { contractOf, listExports, shapeProblem } from './plugin-shape.js';
import { unknownBuiltin } from './unknown-builtin.js';

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

const isFactoryOf = (kind: ComponentKind, value: unknown): boolean =>
  typeof value === 'function' && shapeProblem(kind, value) !== undefined;

/**
 * The export a plugin spec uses: the one it names, else the first of `PLUGIN_EXPORTS` the module has. A spec
 * with options needs a factory to give them to: without `export`, a factory among the candidates wins over
 * a ready component (the scaffold's `export default createAdapter()` beside `createAdapter`), and options
 * for an export that is a ready component are an error rather than dropped.
 */
export function pluginExport(
  kind: Exclude<ComponentKind, 'estimator'>,
  mod: ModuleNamespace,
  spec: { package?: string; export?: string; options?: JsonObject },
  what: string,
): string {
  const packageName = spec.package as string;
  const candidates = spec.export ? [spec.export] : PLUGIN_EXPORTS[kind];
  const present = candidates.filter((k) => mod[k] !== undefined);
  const first = present[0];
  if (first === undefined) {
    throw new PluginShapeError(
      what,
      packageName,
      candidates.join('|'),
      `${contractOf(kind)} (no export ${candidates.map((c) => `"${c}"`).join(', ')})`,
      listExports(mod),
    );
  }
  const hasOptions = spec.options !== undefined && Object.keys(spec.options).length > 0;
  if (!hasOptions || isFactoryOf(kind, mod[first])) return first;
  const factory = present.find((k) => isFactoryOf(kind, mod[k]));
  if (factory !== undefined) return factory;
  if (shapeProblem(kind, mod[first]) !== undefined) return first; // the shape error says more
  throw new PluginShapeError(
    what,
    packageName,
    first,
    `factory (options, context) => ${contractOf(kind)}: the config gives options (${Object.keys(
      spec.options as JsonObject,
    ).join(', ')}), and a ready ${contractOf(kind)} takes none`,
    listExports(mod),
    {
      hint: 'Export a factory and name it with "export" in the config (e.g. createAdapter), or remove the options.',
    },
  );
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
    const key = pluginExport(kind, mod, s, what);
    const exportValue = mod[key];
    const isFactory = isFactoryOf(kind, exportValue);
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
  const table = BUILTIN_COMPONENTS[kind];
  const entry = table[name];
  if (!entry) throw unknownBuiltin(kind, name, Object.keys(table), ctx.configPath);
  const mod = await importEntry(entry, kind, name, ctx.configPath);
  // Every problem with the options at once, by the component package's own check, before it builds.
  const problems = await checkBuiltinOptions(entry, kind, s.options, ctx.configPath);
  if (problems.length > 0) throw new ValidationError('config', problems);
  const value = (await createBuiltin(entry, kind, mod, s.options, ctx)) as ComponentTypes[K];
  const persistence =
    (builtinPersistence(entry, mod) as Persistence<ComponentTypes[K]> | undefined) ??
    pluginPersistence(value);
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

/**
 * Resolves an estimator: a name in `@skillrl/advantage`'s registry, or `{ package, name }` — the package
 * exports `estimators: { [name]: (options) => estimator }` (depending on `@skillrl/core` alone), which are
 * registered under their names before use.
 */
export async function resolveEstimator(
  spec: ComponentSpec,
  configPath: string,
  options: {
    /**
     * Leave the registry as it was found (`skillrl check`): a package's names are registered for as long as
     * it takes to create the estimator once, so checking never blocks a later run of another package.
     */
    transient?: boolean;
  } = {},
): Promise<ResolvedEstimator> {
  const s = normalise(spec);
  const advantage = await importBuiltin(
    '@skillrl/advantage',
    `estimator "${s.name ?? s.package}"`,
    configPath,
  );
  const register = advantage.registerEstimator as (name: string, factory: EstimatorFactory) => void;
  const create = advantage.createEstimator as (name: string, options?: JsonObject) => AdvantageEstimator;
  const list = advantage.listEstimators as () => string[];
  const added: string[] = [];
  try {
    return await resolveNamed();
  } finally {
    if (options.transient) {
      const unregister = advantage.unregisterEstimator as (name: string) => boolean;
      for (const n of added) unregister(n);
    }
  }

  async function resolveNamed(): Promise<ResolvedEstimator> {
    let name = s.name;
    let source = `registry:${name}`;
    if (s.package !== undefined) {
      const what = `estimator "${s.name ?? s.package}"`;
      const mod = await importFromConfig(s.package, configPath, what);
      // No table: the package registered its estimators itself when it loaded (`registerEstimator`, through
      // either build of @skillrl/advantage: they share one registry), and the config names the one to use.
      const found = estimatorTable(mod, s.package, what, s);
      if (found !== undefined) {
        const names = Object.keys(found.table);
        for (const [n, factory] of Object.entries(found.table)) {
          const known = list().includes(n);
          try {
            register(n, factory);
            if (!known) added.push(n);
          } catch (cause) {
            if (!RegistryError.isInstance(cause)) throw cause;
            throw new InvalidArgumentError(
              `estimator "${n}" of "${s.package}"`,
              `the name is taken by a different estimator (a built-in, or one registered earlier), and a package cannot replace it; rename it in the package's ${found.key} (registered: ${list().join(', ')})`,
              { cause },
            );
          }
        }
        if (name === undefined) {
          if (names.length > 1) {
            throw new InvalidArgumentError(
              'estimator.name',
              `"${s.package}" registers ${names.join(', ')}: pick one`,
            );
          }
          name = names[0] as string;
        } else if (!names.includes(name)) {
          throw new RegistryError(`estimator of "${s.package}"`, name, 'unknown', names);
        }
      }
      source = `package:${s.package}#${name}`;
    }
    const resolvedName = name as string;
    // Named like the other kinds' registries (`Unknown adapter "x"`), by `check` and `run` alike.
    if (!list().includes(resolvedName)) throw new RegistryError('estimator', resolvedName, 'unknown', list());
    // Creating once here surfaces an unknown name, bad options or a wrong shape before any rollout.
    const made = create(resolvedName, s.options);
    const problem = shapeProblem('estimator', made);
    if (problem !== undefined) {
      throw new PluginShapeError(
        `estimator "${resolvedName}"`,
        s.package ?? '@skillrl/advantage',
        `estimators.${resolvedName}`,
        `factory of an ${problem} (called with the options, it returned that)`,
        made !== null && typeof made === 'object'
          ? Object.keys(made).map((k) => `${k} (${typeof (made as unknown as Record<string, unknown>)[k]})`)
          : [],
        { hint: 'Return { name, estimate(batch) } from the factory.' },
      );
    }
    // An older @skillrl/advantage has no declarations to read: nothing is overridden as far as it says.
    const declared = advantage.estimatorBatchOverrides as ((name: string) => unknown) | undefined;
    const batchOverrides = readBatchOverrides(
      typeof declared === 'function' ? declared(resolvedName) : undefined,
    );
    return { name: resolvedName, source, create: () => create(resolvedName, s.options), batchOverrides };
  }
}
