import type { ComponentKind } from '@skillrl/core';
import { RegistryError } from '@skillrl/core';
import { resolvePlugin } from './import-package.js';

/** Where a component of each kind is named in a config. */
const FIELD: Record<ComponentKind, string> = {
  adapter: 'adapter',
  agent: 'agent',
  generator: 'evolve.generator',
  trainer: 'internalize.trainer',
  estimator: 'estimator',
};

/**
 * A name that is no built-in: the error lists the built-ins and says how to name a package instead — with
 * the package's own name when one of that name is installed where the config can find it.
 */
export function unknownBuiltin(
  kind: ComponentKind,
  name: string,
  known: readonly string[],
  configPath?: string,
): RegistryError {
  let installed = false;
  if (configPath) {
    try {
      resolvePlugin(name, configPath, `${kind} "${name}"`);
      installed = true;
    } catch {
      // Not installed (or not a package name): the general hint.
    }
  }
  const hint = installed
    ? `A package "${name}" is installed: to use it, write ${FIELD[kind]}: { package: ${name} }.`
    : `A package or a module file is named with ${FIELD[kind]}: { package: <name or ./path> }.`;
  return new RegistryError(kind, name, 'unknown', known, hint);
}
