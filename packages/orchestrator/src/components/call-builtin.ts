import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import type { ComponentContext, ComponentKind, JsonObject, Persistence } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import type { BuiltinEntry } from './builtin-components.js';
import { importBuiltin, importFromConfig, type ModuleNamespace } from './import-package.js';

// How a built-in is called, the same way for each: its package imported, its check, factory, probe and state
// exports called as its entry in `BUILTIN_COMPONENTS` names them.

type Fn = (...args: unknown[]) => unknown;
type Issue = { path: string; message: string };

/** How the config uses a component, for the option checks that depend on it. */
export interface ComponentUse {
  /** The agent is trained by the run (internalize with a trainer that trains it, such as tinker). */
  trained?: boolean;
  /** The config's method (`evolve`, `internalize`). */
  method?: string;
}

/** Where a kind's options sit in a config. */
const OPTIONS_AT: Record<ComponentKind, string> = {
  adapter: 'adapter.options',
  agent: 'agent.options',
  generator: 'evolve.generator.options',
  trainer: 'internalize.trainer.options',
  estimator: 'estimator.options',
};

const optionsAt = (entry: BuiltinEntry, kind: ComponentKind) => entry.at ?? OPTIONS_AT[kind];

function exported(mod: ModuleNamespace, name: string, pkg: string): Fn {
  const fn = mod[name];
  if (typeof fn !== 'function') {
    throw new InvalidArgumentError(pkg, `expected it to export ${name}(); update the package`);
  }
  return fn as Fn;
}

/** Loads the package behind a built-in entry. */
export function importEntry(
  entry: BuiltinEntry,
  kind: ComponentKind,
  name: string,
  configPath?: string,
): Promise<ModuleNamespace> {
  return importBuiltin(entry.package, `${kind} "${name}"`, configPath);
}

/**
 * `fn(options, path, use, configPath)` as `pkg` exports it; none when the installed version exports no such
 * check (an older one: its factory still checks when it builds).
 */
async function packageOptionCheck(
  pkg: string,
  fn: string,
  options: JsonObject,
  path: string,
  configPath: string,
  use: ComponentUse = {},
): Promise<Issue[]> {
  let mod: ModuleNamespace;
  try {
    mod = await importBuiltin(pkg, `the options at ${path}`, configPath);
  } catch (error) {
    // An older version without the (light) subpath that carries the check: its factory checks when it builds.
    if ((error as { code?: string } | null)?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return [];
    throw error;
  }
  const check = mod[fn];
  return typeof check === 'function' ? ((check as Fn)(options, path, use, configPath) as Issue[]) : [];
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The trainer an entry's `trainer` option names (one of the entry's), with the options given it if any. */
function trainerOf(entry: BuiltinEntry, options: JsonObject) {
  const spec = options.trainer;
  const name = isObject(spec) ? spec.name : spec;
  const trainer = typeof name === 'string' ? entry.trainers?.[name] : undefined;
  if (trainer === undefined) return undefined;
  const given = isObject(spec) ? (spec.options ?? {}) : undefined;
  return { trainer, ...(isObject(given) ? { options: given } : {}) };
}

/** Packages besides `package` that these options need (`skillrl check` looks for them): a named trainer's. */
export function builtinRequires(entry: BuiltinEntry, options: JsonObject): string[] {
  const found = trainerOf(entry, options);
  return found ? [found.trainer.package] : [];
}

/**
 * Every problem with a built-in's options, by path, as its package's check (and a named trainer's package's)
 * finds them: called by `skillrl check` when the package is installed, and before `create` by a run. The
 * orchestrator keeps no copy of a package's option lists.
 */
export async function checkBuiltinOptions(
  entry: BuiltinEntry,
  kind: ComponentKind,
  options: JsonObject,
  configPath: string,
  use: ComponentUse = {},
): Promise<Issue[]> {
  const at = `$.${optionsAt(entry, kind)}`;
  const issues = entry.check
    ? await packageOptionCheck(entry.checkFrom ?? entry.package, entry.check, options, at, configPath, use)
    : [];
  const found = trainerOf(entry, options);
  if (found?.options) {
    const { package: pkg, check } = found.trainer;
    issues.push(
      ...(await packageOptionCheck(pkg, check, found.options, `${at}.trainer.options`, configPath)),
    );
  }
  return issues;
}

/** What every built-in factory (and probe) is told besides the component context. */
function configContext(entry: BuiltinEntry, kind: ComponentKind, configPath: string) {
  return {
    configPath,
    path: optionsAt(entry, kind),
    importModule: (specifier: string, what: string) => importFromConfig(specifier, configPath, what),
  };
}

/**
 * A built-in adapter's data `path` (one file, or split → file) read relative to the config file, like
 * packages are, so a config runs the same from any working directory.
 */
function withDataPaths(options: JsonObject, configPath: string): JsonObject {
  const path = options.path;
  const base = dirname(configPath);
  const fix = (p: unknown) => (typeof p === 'string' && !isAbsolute(p) ? resolvePath(base, p) : p);
  if (typeof path === 'string') return { ...options, path: fix(path) as string };
  if (path !== null && typeof path === 'object' && !Array.isArray(path)) {
    return {
      ...options,
      path: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, fix(v)])) as JsonObject,
    };
  }
  return options;
}

/** Builds a built-in from its package's factory, as the entry names it. */
export async function createBuiltin(
  entry: BuiltinEntry,
  kind: ComponentKind,
  mod: ModuleNamespace,
  options: JsonObject,
  ctx: ComponentContext,
): Promise<unknown> {
  if (typeof entry.create === 'function') return entry.create(options);
  const factory = exported(mod, entry.create, entry.package);
  if (kind === 'adapter') {
    return Object.keys(options).length === 0 ? mod.default : factory(withDataPaths(options, ctx.configPath));
  }
  const context: Record<string, unknown> = { ...ctx, ...configContext(entry, kind, ctx.configPath) };
  if (entry.trainers) context.trainers = trainerBuilders(entry, kind, ctx);
  return factory(options, context);
}

/** The builders of an entry's trainers, as its factory takes them: each imports its package when used. */
function trainerBuilders(entry: BuiltinEntry, kind: ComponentKind, ctx: ComponentContext) {
  const at = optionsAt(entry, kind);
  const build = ([name, t]: [string, { package: string; create: string }]) => [
    name,
    async (options: JsonObject) => {
      const mod = await importBuiltin(t.package, `${at}.trainer "${name}"`, ctx.configPath);
      return exported(mod, t.create, t.package)({ seed: ctx.seed, options, configPath: ctx.configPath });
    },
  ];
  return Object.fromEntries(Object.entries(entry.trainers ?? {}).map(build));
}

/** `skillrl check` only: the entry's probe, called as its factory is; no problems when it has none. */
export async function probeBuiltin(
  entry: BuiltinEntry,
  kind: ComponentKind,
  mod: ModuleNamespace,
  options: JsonObject,
  configPath: string,
): Promise<Issue[]> {
  const probe = entry.probe ? mod[entry.probe] : undefined;
  if (typeof probe !== 'function') return [];
  return (await (probe as Fn)(options, configContext(entry, kind, configPath))) as Issue[];
}

/** How a built-in's state travels through a checkpoint folder, as its entry names the exports. */
export function builtinPersistence(
  entry: BuiltinEntry,
  mod: ModuleNamespace,
): Persistence<unknown> | undefined {
  const names = entry.persistence;
  if (names === undefined) return undefined;
  return {
    kind: 'dir',
    save: async (component, dir) => {
      if (names.save) await exported(mod, names.save, entry.package)(component, dir);
      else await (component as { save(dir: string): Promise<void> }).save(dir);
    },
    load: async (dir) => exported(mod, names.load, entry.package)(dir),
  };
}
