import type { EstimatorBatchOverrides, JsonObject, TaskAdapter, ValidationIssue } from '@skillrl/core';
import { createRng, RegistryError, ValidationError } from '@skillrl/core';
import { checkConfigAgainstAdapter } from '../config/check-config-semantics.js';
import { checkEstimatorOverrides, readBatchOverrides } from '../config/check-estimator-overrides.js';
import type { ComponentSpec, LoadedConfig } from '../config/config-types.js';
import { BUILTIN_COMPONENTS } from './builtin-components.js';
import type { ComponentKind } from './component-types.js';
import {
  findBuiltin,
  importBuiltin,
  interopNamespace,
  type ModuleNamespace,
  resolvePlugin,
} from './import-package.js';
import { contractOf, listExports, shapeProblem } from './plugin-shape.js';
import { PluginShapeError } from './plugin-shape-error.js';
import { estimatorTable, PLUGIN_EXPORTS, resolveComponent } from './resolve-component.js';

export interface ComponentCheck {
  /** Where the config names it: `adapter`, `agent`, `estimator`, `evolve.generator`, `internalize.trainer`. */
  role: string;
  /**
   * The component's kind, `method` for the method's own step (evolve's, internalize's), or `config` for a
   * combination that cannot work with the adapter (`role` is then the config field to change).
   */
  kind: ComponentKind | 'method' | 'config';
  /** `registry:<name>` or `package:<specifier>`. */
  source: string;
  /** What it resolved to: the providing package of a built-in, the module file of a package. */
  resolved?: string;
  /** The problem, when it cannot be used; nothing else was checked for it. */
  error?: unknown;
}

function normalise(spec: ComponentSpec): {
  name?: string;
  package?: string;
  export?: string;
  options?: JsonObject;
} {
  return typeof spec === 'string' ? { name: spec } : spec;
}

/** Registry name: the name is known and its package is installed (found, not imported: no tfjs loads). */
function checkBuiltin(
  kind: ComponentKind,
  name: string,
  configPath: string,
  options: JsonObject = {},
): Omit<ComponentCheck, 'role' | 'kind'> {
  const table = BUILTIN_COMPONENTS[kind];
  const entry = table[name];
  const source = `registry:${name}`;
  if (!entry) return { source, error: new RegistryError(kind, name, 'unknown', Object.keys(table)) };
  // The entry's package, then any its options need (an LLM editor trained on Tinker: @skillrl/trainer-tinker).
  for (const pkg of [entry.package, ...(entry.requires?.(options) ?? [])]) {
    const missing = findBuiltin(pkg, `${kind} "${name}"`, configPath);
    if (missing) return { source, resolved: entry.package, error: missing };
  }
  const problems = entry.checkOptions?.(options, configPath) ?? [];
  if (problems.length > 0)
    return { source, resolved: entry.package, error: new ValidationError('config', problems) };
  return { source, resolved: entry.package };
}

async function importPlugin(
  specifier: string,
  configPath: string,
  what: string,
): Promise<{ url: string; mod: ModuleNamespace }> {
  const resolved = resolvePlugin(specifier, configPath, what);
  return { url: resolved.url, mod: interopNamespace((await import(resolved.url)) as ModuleNamespace) };
}

/** A plugin package: it resolves, imports, and has the export; an object export has the contract's shape. */
async function checkPlugin(
  kind: Exclude<ComponentKind, 'estimator'>,
  spec: { name?: string; package: string; export?: string },
  configPath: string,
): Promise<Omit<ComponentCheck, 'role' | 'kind'>> {
  const source = `package:${spec.package}`;
  const what = `${kind} "${spec.name ?? spec.package}"`;
  try {
    const { url, mod } = await importPlugin(spec.package, configPath, what);
    const candidates = spec.export ? [spec.export] : PLUGIN_EXPORTS[kind];
    const key = candidates.find((k) => mod[k] !== undefined);
    if (key === undefined) {
      throw new PluginShapeError(
        what,
        spec.package,
        candidates.join('|'),
        `${contractOf(kind)} (no export ${candidates.map((c) => `"${c}"`).join(', ')})`,
        listExports(mod),
      );
    }
    // A function is a factory: calling it would create the component (and may start work), so it is not.
    const problem = typeof mod[key] === 'function' ? undefined : shapeProblem(kind, mod[key]);
    if (problem !== undefined) throw new PluginShapeError(what, spec.package, key, problem, listExports(mod));
    return { source: `${source}#${key}`, resolved: url };
  } catch (error) {
    return { source, error };
  }
}

async function checkEstimator(
  spec: ComponentSpec,
  configPath: string,
): Promise<Omit<ComponentCheck, 'role' | 'kind'> & { batchOverrides?: EstimatorBatchOverrides }> {
  const s = normalise(spec);
  try {
    const advantage = await importBuiltin(
      '@skillrl/advantage',
      `estimator "${s.name ?? s.package}"`,
      configPath,
    );
    const known = (advantage.listEstimators as () => string[])();
    if (s.package === undefined) {
      const name = s.name as string;
      if (!known.includes(name)) throw new RegistryError('estimator', name, 'unknown', known);
      // A built-in factory is a pure function: creating it checks the options as `run` will (a misspelt
      // `interBaseline`, a `w` out of range) without running anything.
      (advantage.createEstimator as (name: string, options?: JsonObject) => unknown)(name, s.options);
      const declared = advantage.estimatorBatchOverrides as ((name: string) => unknown) | undefined;
      return {
        source: `registry:${name}`,
        resolved: '@skillrl/advantage',
        batchOverrides: readBatchOverrides(typeof declared === 'function' ? declared(name) : undefined),
      };
    }
    const what = `estimator "${s.name ?? s.package}"`;
    const { url, mod } = await importPlugin(s.package, configPath, what);
    const table = estimatorTable(mod, s.package, what);
    const names = Object.keys(table);
    const name = s.name ?? (names.length === 1 ? names[0] : undefined);
    if (name === undefined || !names.includes(name)) {
      throw new RegistryError(`estimator of "${s.package}"`, s.name ?? '(unnamed)', 'unknown', names);
    }
    // Read off the factory, not called (a package's factory may start work).
    const batchOverrides = readBatchOverrides((table[name] as { batchOverrides?: unknown }).batchOverrides);
    return { source: `package:${s.package}#${name}`, resolved: url, batchOverrides };
  } catch (error) {
    return { source: s.package ? `package:${s.package}` : `registry:${s.name}`, error };
  }
}

/** A combination that cannot work, as a row: `role` is the config field to change. */
function configRow(issue: ValidationIssue): ComponentCheck {
  return {
    role: issue.path.replace(/^\$\./, ''),
    kind: 'config',
    source: 'config',
    error: new ValidationError('config', [issue]),
  };
}

/**
 * Resolves every component a config names, without running anything: registry names must be known and
 * their packages installed (found, not loaded), plugin packages must resolve from the config's folder,
 * import, and export the component (factories are not called). Returns one row per component, with the
 * problem when there is one.
 */
export async function checkComponents(loaded: LoadedConfig): Promise<ComponentCheck[]> {
  const { config, path } = loaded;
  const roles: { role: string; kind: ComponentKind; spec: ComponentSpec | undefined }[] = [
    { role: 'adapter', kind: 'adapter', spec: config.adapter },
    { role: 'agent', kind: 'agent', spec: config.agent },
    { role: 'estimator', kind: 'estimator', spec: config.estimator },
    { role: 'evolve.generator', kind: 'generator', spec: config.evolve?.generator },
    { role: 'internalize.trainer', kind: 'trainer', spec: config.internalize?.trainer },
  ];
  const out: ComponentCheck[] = [];
  // The method's own step: Skill-R1's generation lives in skill-generator (an optional peer), SKILLC's
  // planning in curriculum (a dependency).
  const methodPackage =
    config.method === 'evolve' ? '@skillrl/skill-generator/generation' : '@skillrl/curriculum';
  const missing = findBuiltin(methodPackage, `method "${config.method}"`, path);
  out.push({
    role: 'method',
    kind: 'method',
    source: `registry:${config.method}`,
    resolved: methodPackage,
    ...(missing ? { error: missing } : {}),
  });
  for (const { role, kind, spec } of roles) {
    if (spec === undefined) continue;
    const s = normalise(spec);
    let row: Omit<ComponentCheck, 'role' | 'kind'>;
    if (kind === 'estimator') {
      const { batchOverrides, ...checked } = await checkEstimator(spec, path);
      out.push({ role, kind, ...checked });
      // Options the method's batch fields replace would do nothing: what `run` refuses before it starts.
      for (const issue of checkEstimatorOverrides(config, batchOverrides ?? {})) out.push(configRow(issue));
      continue;
    }
    if (s.package !== undefined) {
      row = await checkPlugin(kind, s as { name?: string; package: string; export?: string }, path);
    } else row = checkBuiltin(kind, s.name as string, path, s.options);
    out.push({ role, kind, ...row });
  }
  // With the adapter found, the combinations that cannot work with it (what `run` refuses before it starts).
  if (config.adapter !== undefined && out.some((c) => c.role === 'adapter' && c.error === undefined)) {
    let adapter: TaskAdapter | undefined;
    try {
      adapter = (
        await resolveComponent('adapter', config.adapter, {
          seed: createRng(config.seed).seedFor('component:adapter'),
          configPath: path,
        })
      ).value;
    } catch (error) {
      out.push({ role: 'adapter', kind: 'adapter', source: 'options', error });
    }
    if (adapter) {
      for (const issue of await checkConfigAgainstAdapter(config, adapter)) out.push(configRow(issue));
    }
  }
  return out;
}
