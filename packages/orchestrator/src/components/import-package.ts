import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvalidArgumentError, MissingPackageError } from '@skillrl/core';
import { moduleResolve } from 'import-meta-resolve';

export type ModuleNamespace = Record<string, unknown>;

/** What a plugin specifier resolved to, before it is imported. */
export interface ResolvedPlugin {
  /** The specifier as the config wrote it. */
  specifier: string;
  /** The module file, as a `file:` URL. */
  url: string;
  /** How it was found: the ESM loader's rules (`import`), CommonJS's (`require`: a package with only a
   * `require` export), or a module path or package folder relative to the config. */
  via: 'import' | 'require' | 'path';
}

// The conditions Node's ESM loader matches for `import()` (`default` always matches): a dual package's ESM
// build is chosen, so a plugin imports the same @skillrl/core instance as the orchestrator (no dual-package
// hazard); `require` is tried only when a package exports nothing under these.
const IMPORT_CONDITIONS = new Set(['node', 'import']);

function code(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** A file inside the directory to resolve from (the config file itself, or `noop.js` in a directory). */
function parentFile(configPath: string): string {
  const existsAsDir = existsSync(configPath) && statSync(configPath).isDirectory();
  return configPath.endsWith('/') || existsAsDir ? join(configPath, 'noop.js') : configPath;
}

function isPathSpecifier(specifier: string): boolean {
  return (
    specifier.startsWith('./') ||
    specifier.startsWith('../') ||
    specifier === '.' ||
    specifier === '..' ||
    specifier.startsWith('file:') ||
    isAbsolute(specifier)
  );
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

function readPackageJson(dir: string): Record<string, unknown> | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (cause) {
    throw new InvalidArgumentError(file, 'is not valid JSON', { cause });
  }
}

/** A package folder named by path: its `exports` (by self-reference, as Node resolves them), else `main`. */
function resolvePackageFolder(dir: string, specifier: string, what: string, configPath: string): string {
  const pkg = readPackageJson(dir);
  if (pkg === undefined) {
    for (const index of ['index.js', 'index.mjs', 'index.cjs']) {
      if (existsSync(join(dir, index))) return pathToFileURL(join(dir, index)).href;
    }
    throw new MissingPackageError(what, specifier, configPath, {
      detail: `${dir} is a folder without package.json or index.js`,
    });
  }
  if (pkg.exports !== undefined) {
    if (typeof pkg.name !== 'string') {
      throw new InvalidArgumentError(
        join(dir, 'package.json'),
        'has "exports" but no "name"; add the name so its exports can be resolved',
      );
    }
    return resolveBare(pkg.name, pathToFileURL(join(dir, 'package.json')), what, configPath).url;
  }
  const main = typeof pkg.main === 'string' ? pkg.main : undefined;
  const tries = main
    ? [main, `${main}.js`, `${main}.json`, `${main}/index.js`, 'index.js']
    : ['index.js', 'index.mjs', 'index.cjs'];
  for (const t of tries) {
    const file = resolvePath(dir, t);
    if (existsSync(file) && statSync(file).isFile()) return pathToFileURL(file).href;
  }
  throw new InvalidArgumentError(
    what,
    `${dir}/package.json names main "${main ?? 'index.js'}", which does not exist; build the package`,
  );
}

function resolvePathSpecifier(specifier: string, configPath: string, what: string): ResolvedPlugin {
  const base = dirname(parentFile(configPath));
  const target = specifier.startsWith('file:') ? fileURLToPath(specifier) : resolvePath(base, specifier);
  if (!existsSync(target)) {
    throw new MissingPackageError(what, specifier, configPath, { detail: `${target} does not exist` });
  }
  if (statSync(target).isDirectory()) {
    return { specifier, url: resolvePackageFolder(target, specifier, what, configPath), via: 'path' };
  }
  return { specifier, url: pathToFileURL(target).href, via: 'path' };
}

function resolveBare(specifier: string, parent: URL, what: string, configPath: string): ResolvedPlugin {
  try {
    return { specifier, url: moduleResolve(specifier, parent, IMPORT_CONDITIONS).href, via: 'import' };
  } catch (esmError) {
    const c = code(esmError);
    const message = String((esmError as Error).message ?? '');
    if (c === 'ERR_MODULE_NOT_FOUND' && message.startsWith('Cannot find package')) {
      throw new MissingPackageError(what, specifier, configPath, { cause: esmError });
    }
    if (c === 'ERR_MODULE_NOT_FOUND') {
      // The package is there, the file its exports or main name is not: an unbuilt package.
      throw new InvalidArgumentError(
        what,
        `"${specifier}" is installed but the file it points to is missing (${message.split('\n')[0]}); build or reinstall the package`,
        { cause: esmError },
      );
    }
    if (c === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || c === 'ERR_UNSUPPORTED_DIR_IMPORT') {
      // A CommonJS-only package (`exports` with only a `require` condition) loads through require's rules.
      try {
        const url = pathToFileURL(createRequire(parent).resolve(specifier)).href;
        return { specifier, url, via: 'require' };
      } catch {
        throw new InvalidArgumentError(
          what,
          `"${packageNameOf(specifier)}" is installed but exports no "${specifier}" for import or require (${message.split('\n')[0]}); check the subpath against its package.json "exports"`,
          { cause: esmError },
        );
      }
    }
    throw esmError;
  }
}

/**
 * Resolves a plugin specifier the way Node's ESM loader would from the config file's directory: a package
 * (`my-adapter`, `@scope/pkg`) or one of its subpaths (`my-pkg/adapter`) through its `exports` with the
 * `node`/`import`/`default` conditions (a dual package's ESM build; a `require`-only package through
 * CommonJS's rules), or a path relative to the config (`./local/adapter.mjs`, or a folder with a
 * package.json). Nothing is imported.
 */
export function resolvePlugin(specifier: string, configPath: string, what: string): ResolvedPlugin {
  if (isPathSpecifier(specifier)) return resolvePathSpecifier(specifier, configPath, what);
  return resolveBare(specifier, pathToFileURL(parentFile(configPath)), what, configPath);
}

/**
 * The module's exports as an ES module would see them. `import()` of CommonJS puts the whole
 * `module.exports` under `default`; a transpiled ES module (tsup, tsc, Babel) marks its `module.exports`
 * with `__esModule` and keeps its own default export at `module.exports.default`, so that is unwrapped.
 */
export function interopNamespace(namespace: ModuleNamespace): ModuleNamespace {
  const def = namespace.default as Record<string, unknown> | undefined;
  if (
    def !== null &&
    (typeof def === 'object' || typeof def === 'function') &&
    (def as { __esModule?: unknown }).__esModule === true
  ) {
    const out: ModuleNamespace = {};
    for (const [k, v] of Object.entries(namespace)) if (k !== 'default' && k !== '__esModule') out[k] = v;
    for (const k of Object.keys(def)) if (k !== '__esModule') out[k] = def[k];
    out.default = def.default;
    return out;
  }
  const { __esModule: _, ...rest } = namespace;
  return rest;
}

/**
 * Imports a package (or a module path) as the config file would see it: resolved like Node's ESM loader
 * from the config's directory (see `resolvePlugin`), so a package installed next to the config is enough
 * to swap a part; CommonJS default exports are unwrapped.
 */
export async function importFromConfig(
  specifier: string,
  configPath: string,
  what: string,
): Promise<ModuleNamespace> {
  const resolved = resolvePlugin(specifier, configPath, what);
  return interopNamespace((await import(resolved.url)) as ModuleNamespace);
}

function notFound(error: unknown): boolean {
  const c = code(error);
  return c === 'ERR_MODULE_NOT_FOUND' || c === 'MODULE_NOT_FOUND';
}

/** The package a "module not found" error names (`Cannot find package '@x/y' imported from ...`). */
function missingName(error: unknown): string | undefined {
  const m = /Cannot find (?:package|module) '([^']+)'/.exec(String((error as Error)?.message ?? ''));
  if (!m?.[1] || isAbsolute(m[1]) || m[1].startsWith('.')) return undefined;
  return packageNameOf(m[1]);
}

/**
 * Where to look for one of skillrl's own packages besides the orchestrator's folder: its optional peers are
 * found next to it (npm) or linked to it (pnpm) when installed; the config's folder and the running
 * script's (the `skillrl` meta-package's bin) are asked too, for strict layouts.
 */
function builtinRoots(configPath?: string): string[] {
  const roots: string[] = [];
  if (configPath) roots.push(parentFile(configPath));
  if (process.argv[1]) roots.push(process.argv[1]);
  roots.push(join(process.cwd(), 'noop.js'));
  return roots;
}

/**
 * Imports one of skillrl's own packages (or a subpath, e.g. `@skillrl/skill-generator/llm-editor`) by
 * name. They are optional peers of the orchestrator, loaded only when a config uses them (tfjs stays
 * unloaded for an LLM-only run); one that is not installed, or a package it needs that is not (tfjs for the
 * step editor), is a MissingPackageError naming what to install.
 */
export async function importBuiltin(
  specifier: string,
  what: string,
  configPath?: string,
): Promise<ModuleNamespace> {
  const pkg = packageNameOf(specifier);
  let first: unknown;
  try {
    return (await import(specifier)) as ModuleNamespace;
  } catch (cause) {
    if (!notFound(cause)) throw cause;
    const missing = missingName(cause);
    if (missing !== undefined && missing !== pkg) {
      throw new MissingPackageError(`${what} (through ${pkg})`, missing, pkg, { cause });
    }
    first = cause;
  }
  for (const root of builtinRoots(configPath)) {
    let url: string;
    try {
      url = moduleResolve(specifier, pathToFileURL(root), IMPORT_CONDITIONS).href;
    } catch {
      continue;
    }
    return (await import(url)) as ModuleNamespace;
  }
  throw new MissingPackageError(what, pkg, '@skillrl/orchestrator', { cause: first });
}

/**
 * Whether a built-in's package can be found, without importing it (so `skillrl check` loads no tfjs).
 * Returns the problem, or undefined.
 */
export function findBuiltin(
  specifier: string,
  what: string,
  configPath?: string,
): MissingPackageError | undefined {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  for (const root of [here, ...builtinRoots(configPath)]) {
    try {
      moduleResolve(specifier, pathToFileURL(root), IMPORT_CONDITIONS);
      return undefined;
    } catch {}
  }
  return new MissingPackageError(what, packageNameOf(specifier), '@skillrl/orchestrator');
}

/**
 * The optional peers a built-in needs beyond its own package (the step editor's `@skillrl/tensor-ops` and
 * `@tensorflow/tfjs`), looked for as Node would find them when the package imports them: from the package's
 * own folder, or from a peer found before it (tfjs from tensor-ops). Nothing is imported. Returns the first
 * one missing, as the MissingPackageError `run` would throw on importing the package, or undefined.
 */
export function findBuiltinPeers(
  specifier: string,
  peers: readonly string[],
  what: string,
  configPath?: string,
): MissingPackageError | undefined {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  let from: URL | undefined;
  for (const root of [here, ...builtinRoots(configPath)]) {
    try {
      from = moduleResolve(specifier, pathToFileURL(root), IMPORT_CONDITIONS);
      break;
    } catch {}
  }
  if (from === undefined) return findBuiltin(specifier, what, configPath);
  const bases: URL[] = [from];
  for (const peer of peers) {
    let found: URL | undefined;
    for (const base of bases) {
      try {
        found = moduleResolve(peer, base, IMPORT_CONDITIONS);
        break;
      } catch {}
    }
    if (found === undefined) {
      return new MissingPackageError(`${what} (through ${specifier})`, peer, specifier, {
        detail: 'an optional peer this component needs',
      });
    }
    bases.push(found);
  }
  return undefined;
}
