import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MissingPackageError } from './missing-package-error.js';

export type ModuleNamespace = Record<string, unknown>;

function notFound(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Imports a package (or a module path) as the config file would see it: resolved with Node's resolution
 * from the config's directory, so a package installed next to the config is enough to swap a part.
 */
export async function importFromConfig(
  specifier: string,
  configPath: string,
  what: string,
): Promise<ModuleNamespace> {
  // createRequire wants a file inside the directory to resolve from; the file need not exist.
  const require = createRequire(configPath.endsWith('/') ? join(configPath, 'noop.js') : configPath);
  let resolved: string;
  try {
    resolved = require.resolve(specifier);
  } catch (cause) {
    if (notFound(cause) || (cause as { code?: string })?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      throw new MissingPackageError(what, specifier, configPath, { cause });
    }
    throw cause;
  }
  return (await import(pathToFileURL(resolved).href)) as ModuleNamespace;
}

/**
 * Imports one of skillrl's own packages by name. They are dependencies of the orchestrator, but loaded only
 * when a config uses them (tfjs stays unloaded for an LLM-only run), and a trimmed install gets a clear error.
 */
export async function importBuiltin(packageName: string, what: string): Promise<ModuleNamespace> {
  try {
    return (await import(packageName)) as ModuleNamespace;
  } catch (cause) {
    if (notFound(cause) && String((cause as Error).message).includes(packageName)) {
      throw new MissingPackageError(what, packageName, '@skillrl/orchestrator', { cause });
    }
    throw cause;
  }
}
