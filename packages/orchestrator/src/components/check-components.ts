import { dirname, resolve as resolvePath } from 'node:path';
import type {
  Agent,
  ComponentContext,
  ComponentKind,
  JsonObject,
  LoadedConfig,
  RunConfig,
  TaskAdapter,
  ValidationIssue,
} from '@skillrl/core';
import { createRng, PluginShapeError, readSkillFolder, ValidationError } from '@skillrl/core';
import { checkConfigAgainstAdapter } from '../config/check-config-semantics.js';
import { checkEstimatorOverrides, methodBatchFields } from '../config/check-estimator-overrides.js';
import { retirementWarnings } from '../config/check-retirement.js';
import { checkConfig, checkConfigSchema, readConfigFile } from '../config/load-config.js';
import { withSkillFolder } from '../run/skill-folder-adapter.js';
import { BUILTIN_COMPONENTS } from './builtin-components.js';
import {
  builtinRequires,
  type ComponentUse,
  checkBuiltinOptions,
  importEntry,
  probeBuiltin,
} from './call-builtin.js';
import { findBuiltin, findBuiltinPeers, importFromConfig, resolvePlugin } from './import-package.js';
import { listExports, shapeProblem } from './plugin-shape.js';
import { pluginExport, resolveComponent, resolveEstimator } from './resolve-component.js';
import { unknownBuiltin } from './unknown-builtin.js';

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

/** Everything `skillrl check` finds in a config file, in one pass. */
export interface ConfigCheck {
  /** The config file, absolute. */
  path: string;
  method?: string;
  /** The config's own problems (its schema, the rules across fields), as `loadConfig` refuses them. */
  issues: ValidationIssue[];
  /** One row per component (and per combination that cannot work), with its problem when it has one. */
  components: ComponentCheck[];
  /** What runs but will not do as it says; only when there is no problem. */
  warnings: string[];
}

type Spec = { name?: string; package?: string; export?: string; options?: JsonObject };
type Row = Omit<ComponentCheck, 'role' | 'kind'>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The spec as the resolvers read it, or undefined when it is malformed (not a name, nor an object with a
 * name or a package): the schema's issue reports that one, and the others are still checked.
 */
function wellFormed(spec: unknown): Spec | undefined {
  if (typeof spec === 'string') return spec === '' ? undefined : { name: spec };
  if (!isObject(spec)) return undefined;
  const { name, package: pkg, export: key, options } = spec;
  if (name !== undefined && typeof name !== 'string') return undefined;
  if (pkg !== undefined && typeof pkg !== 'string') return undefined;
  if (name === undefined && pkg === undefined) return undefined;
  if (key !== undefined && typeof key !== 'string') return undefined;
  if (options !== undefined && !isObject(options)) return undefined;
  return spec as Spec;
}

/**
 * Registry name: the name is known, its package and the peers it imports are installed (found, not
 * imported: no tfjs loads), and its options name files that exist.
 */
async function checkBuiltin(
  kind: ComponentKind,
  name: string,
  configPath: string,
  options: JsonObject = {},
  use: ComponentUse = {},
  probe = true,
): Promise<Row> {
  const table = BUILTIN_COMPONENTS[kind];
  const entry = table[name];
  const source = `registry:${name}`;
  if (!entry) return { source, error: unknownBuiltin(kind, name, Object.keys(table), configPath) };
  const what = `${kind} "${name}"`;
  // The entry's package with what it imports (tfjs for the step editor, on an LLM-only install), then any
  // package its options need (an LLM editor trained on Tinker: @skillrl/trainer-tinker).
  const missing =
    findBuiltinPeers(entry.package, entry.peers ?? [], what, configPath) ??
    builtinRequires(entry, options)
      .map((pkg) => findBuiltin(pkg, what, configPath))
      .find(Boolean);
  if (missing) return { source, resolved: entry.package, error: missing };
  const problems = await checkBuiltinOptions(entry, kind, options, configPath, use);
  if (problems.length > 0)
    return { source, resolved: entry.package, error: new ValidationError('config', problems) };
  if (entry.probe && probe) {
    try {
      const mod = await importEntry(entry, kind, name, configPath);
      const found = await probeBuiltin(entry, kind, mod, options, configPath);
      if (found.length > 0)
        return { source, resolved: entry.package, error: new ValidationError('config', found) };
    } catch (error) {
      return { source, resolved: entry.package, error };
    }
  }
  return { source, resolved: entry.package };
}

/**
 * A plugin package, created as `run` creates it: it resolves from the config's folder, imports, has the
 * export, and the factory (called with the options and the context) returns the contract's shape. Without
 * the context the factory needs (a trainer for a built-in agent, which check does not build), only the
 * export is checked.
 */
async function checkPlugin<K extends Exclude<ComponentKind, 'estimator'>>(
  kind: K,
  spec: Spec & { package: string },
  configPath: string,
  ctx: ComponentContext | undefined,
): Promise<Row & { value?: unknown }> {
  const source = `package:${spec.package}`;
  const what = `${kind} "${spec.name ?? spec.package}"`;
  try {
    const { url } = resolvePlugin(spec.package, configPath, what);
    if (ctx !== undefined) {
      const made = await resolveComponent(kind, spec, ctx);
      return { source: made.source, resolved: url, value: made.value };
    }
    const mod = await importFromConfig(spec.package, configPath, what);
    const key = pluginExport(kind, mod, spec, what);
    const problem = typeof mod[key] === 'function' ? undefined : shapeProblem(kind, mod[key]);
    if (problem !== undefined) {
      throw new PluginShapeError(what, spec.package, key, problem, listExports(mod));
    }
    return { source: `${source}#${key}`, resolved: url };
  } catch (error) {
    return { source, error };
  }
}

/** An estimator, registered and created exactly as `run` does it (a package's factory is called). */
async function checkEstimator(spec: Spec, configPath: string) {
  try {
    const estimator = await resolveEstimator(spec, configPath, { transient: true });
    const resolved =
      spec.package !== undefined
        ? resolvePlugin(spec.package, configPath, `estimator "${spec.name ?? spec.package}"`).url
        : '@skillrl/advantage';
    return { source: estimator.source, resolved, batchOverrides: estimator.batchOverrides };
  } catch (error) {
    return { source: spec.package ? `package:${spec.package}` : `registry:${spec.name}`, error };
  }
}

/**
 * Whether the run trains its agent: internalize with a trainer that updates a policy (any but `external`;
 * a package's trainer is taken to train). The Tinker agent's check refuses off-policy sampling then.
 */
function trainsAgent(config: Partial<RunConfig>): boolean {
  if (config.method !== 'internalize') return false;
  const spec = wellFormed(isObject(config.internalize) ? config.internalize.trainer : undefined);
  if (spec === undefined) return false;
  if (spec.package !== undefined) return true;
  return !BUILTIN_COMPONENTS.trainer[spec.name as string]?.updatesNoPolicy;
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
 * Every component of a config, built as `run` builds it short of episodes, and the adapter it resolved.
 * `typed` says the config passed its schema: only then is its skill folder read. The rules that read the
 * whole config (the combinations with the adapter, overridden estimator options) are applied beside schema
 * problems elsewhere, guarded, so a config with several mistakes hears of each.
 */
async function inspect(
  config: Partial<RunConfig>,
  path: string,
  typed: boolean,
  probe = true,
): Promise<{ rows: ComponentCheck[]; adapter?: TaskAdapter }> {
  const root = createRng(typeof config.seed === 'number' ? config.seed : 0);
  const context = (role: string, extra: Partial<ComponentContext> = {}): ComponentContext => ({
    seed: root.seedFor(`component:${role}`),
    configPath: path,
    ...extra,
  });
  const rows: ComponentCheck[] = [];
  // The method's own step: Skill-R1's generation lives in skill-generator (an optional peer), SKILLC's
  // planning in curriculum (a dependency).
  if (config.method === 'evolve' || config.method === 'internalize') {
    const methodPackage =
      config.method === 'evolve' ? '@skillrl/skill-generator/generation' : '@skillrl/curriculum';
    const missing = findBuiltin(methodPackage, `method "${config.method}"`, path);
    rows.push({
      role: 'method',
      kind: 'method',
      source: `registry:${config.method}`,
      resolved: methodPackage,
      ...(missing ? { error: missing } : {}),
    });
  }
  const section = (name: 'evolve' | 'internalize') => (isObject(config[name]) ? config[name] : undefined);

  // The adapter first: the agent and the generator are created for it, as in `run`.
  let adapter: TaskAdapter | undefined;
  const adapterSpec = wellFormed(config.adapter);
  if (adapterSpec !== undefined) {
    let row: Row;
    if (adapterSpec.package !== undefined) {
      const checked = await checkPlugin(
        'adapter',
        adapterSpec as Spec & { package: string },
        path,
        context('adapter'),
      );
      adapter = checked.value as TaskAdapter | undefined;
      row = { source: checked.source, ...(checked.resolved ? { resolved: checked.resolved } : {}) };
      if (checked.error !== undefined) row.error = checked.error;
    } else {
      row = await checkBuiltin('adapter', adapterSpec.name as string, path, adapterSpec.options);
      if (row.error === undefined) {
        // A built-in adapter loads no tfjs: created with its options, as `run` creates it.
        try {
          adapter = (await resolveComponent('adapter', adapterSpec, context('adapter'))).value;
        } catch (error) {
          row.error = error;
        }
      }
    }
    rows.push({ role: 'adapter', kind: 'adapter', ...row });
  }

  let agent: Agent | undefined;
  const agentSpec = wellFormed(config.agent);
  if (agentSpec !== undefined) {
    if (agentSpec.package !== undefined) {
      const checked = await checkPlugin(
        'agent',
        agentSpec as Spec & { package: string },
        path,
        adapter ? context('agent', { adapter }) : undefined,
      );
      agent = checked.value as Agent | undefined;
      const { value: _, ...row } = checked;
      rows.push({ role: 'agent', kind: 'agent', ...row });
    } else {
      rows.push({
        role: 'agent',
        kind: 'agent',
        ...(await checkBuiltin(
          'agent',
          agentSpec.name as string,
          path,
          agentSpec.options,
          {
            trained: trainsAgent(config),
            ...(typeof config.method === 'string' ? { method: config.method } : {}),
          },
          probe,
        )),
      });
    }
  }

  const estimatorSpec = wellFormed(config.estimator);
  if (estimatorSpec !== undefined) {
    const { batchOverrides, ...row } = await checkEstimator(estimatorSpec, path);
    rows.push({ role: 'estimator', kind: 'estimator', ...row });
    // Options the method's batch fields replace would do nothing: what `run` refuses before it starts. Read
    // even when another part of the config fails its schema (it reads only the estimator and the method).
    if (batchOverrides !== undefined && (config.method === 'evolve' || config.method === 'internalize')) {
      try {
        // As the method's step declares them; a missing step package is the method row's error.
        const fields = await methodBatchFields(config.method, path);
        for (const issue of checkEstimatorOverrides(config as RunConfig, batchOverrides, fields)) {
          rows.push(configRow(issue));
        }
      } catch {
        // A section of the wrong shape: its schema issue says so.
      }
    }
  }

  const others: { role: string; kind: 'generator' | 'trainer'; spec: unknown; ctx?: ComponentContext }[] = [
    {
      role: 'evolve.generator',
      kind: 'generator',
      spec: section('evolve')?.generator,
      ...(adapter ? { ctx: context('generator', { adapter }) } : {}),
    },
    {
      role: 'internalize.trainer',
      kind: 'trainer',
      spec: section('internalize')?.trainer,
      // A trainer is created for the agent; check builds a package's agent, never a built-in one.
      ...(agent && adapter ? { ctx: context('trainer', { adapter, agent }) } : {}),
    },
  ];
  for (const { role, kind, spec, ctx } of others) {
    const s = wellFormed(spec);
    if (s === undefined) continue;
    const row =
      s.package !== undefined
        ? await checkPlugin(kind, s as Spec & { package: string }, path, ctx)
        : await checkBuiltin(kind, s.name as string, path, s.options, {}, probe);
    const { value: _, ...rest } = row as Row & { value?: unknown };
    rows.push({ role, kind, ...rest });
  }

  // The config's own skill folder in place of the adapter's skills, as a run takes it.
  if (typed && adapter !== undefined && (config as RunConfig).skills) {
    try {
      adapter = withSkillFolder(adapter, config as RunConfig, path);
    } catch (error) {
      rows.push({ role: 'skills', kind: 'config', source: 'config', error });
    }
  }
  // With the adapter built, the combinations that cannot work with it (what `run` refuses before it starts).
  // Read even beside a schema problem elsewhere (a section of the wrong shape is its schema issue).
  if (adapter !== undefined) {
    try {
      for (const issue of await checkConfigAgainstAdapter(config as RunConfig, adapter)) {
        rows.push(configRow(issue));
      }
    } catch {
      // The schema issue names the section.
    }
  }
  return { rows, ...(adapter ? { adapter } : {}) };
}

/**
 * Resolves every component a config names, without running anything: registry names must be known and
 * their packages (and the peers they import) installed, found but not loaded; plugin packages must resolve
 * from the config's folder, import, and export a component, which is created with its options as `run`
 * creates it. Returns one row per component, with the problem when there is one.
 */
export async function checkComponents(loaded: LoadedConfig): Promise<ComponentCheck[]> {
  return (await inspect(loaded.config, loaded.path, true)).rows;
}

/**
 * What `skillrl check` reports for a config file, every problem in one pass: the config's own issues, and
 * every component whose spec is well formed, built as `run` builds it short of episodes (a schema problem
 * elsewhere hides none of them); the warnings when there is no problem.
 */
export async function checkConfigFile(file: string): Promise<ConfigCheck> {
  const { path, value } = readConfigFile(file);
  return checkConfigValue(value, path);
}

/**
 * `checkConfigFile` of a config already read (and changed, `run --set`): `path` is the file it came from,
 * where packages resolve. `skillrl run` calls it before anything starts and refuses every problem it finds,
 * so what check passes run takes, and what run refuses check reports, all in one pass.
 */
export async function checkConfigValue(
  value: unknown,
  path: string,
  options: {
    /** Start what a component needs at run time to see it works (a program agent): `check` only (default). */
    probe?: boolean;
  } = {},
): Promise<ConfigCheck> {
  const config = (isObject(value) ? value : {}) as Partial<RunConfig>;
  const issues = checkConfig(value);
  const typed = checkConfigSchema(value).length === 0;
  const { rows, adapter } = await inspect(config, path, typed, options.probe !== false);
  // Evolve's own starting skills (`initialSkill: { path }`): an Agent Skills folder that reads.
  const own = config.method === 'evolve' ? config.evolve?.initialSkill : undefined;
  if (typed && own !== null && typeof own === 'object' && typeof own.path === 'string') {
    try {
      readSkillFolder(resolvePath(dirname(path), own.path), 'evolve.initialSkill.path');
    } catch (error) {
      rows.push({ role: 'evolve.initialSkill', kind: 'config', source: 'config', error });
    }
  }
  // What runs but will not do as it says (a validation that can never retire a skill type), read off the
  // adapter built above, beside any problem: a config with several mistakes hears of all of them at once.
  let warnings: string[] = [];
  if (adapter && isObject(config.tasks) && typeof config.tasks.split === 'string') {
    try {
      warnings = await retirementWarnings(config as RunConfig, adapter);
    } catch {
      // A section of the wrong shape (its schema issue says so) gives no warning.
    }
  }
  return {
    path,
    ...(typeof config.method === 'string' ? { method: config.method } : {}),
    issues,
    components: rows,
    warnings,
  };
}
