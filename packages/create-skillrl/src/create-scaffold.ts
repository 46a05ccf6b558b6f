import { relative, resolve } from 'node:path';
import { adapterScaffold } from './adapter-scaffold.js';
import { refuseBuiltinEstimatorName } from './builtin-estimator-names.js';
import { estimatorScaffold } from './estimator-scaffold.js';
import { runNextSteps, type ScaffoldKind, scaffoldNextSteps } from './next-steps.js';
import { type RunTemplate, writeRunTemplate } from './run-templates.js';
import { ScaffoldError } from './scaffold-error.js';
import { packageNameFor, writeScaffold } from './write-scaffold.js';

export interface CreatePackageOptions {
  /** npm package name (default: the folder's name, made a valid one). */
  name?: string;
  /** Write into a folder that already holds files. */
  force?: boolean;
  /** Paths in `next` are shown relative to this folder (default the working directory). */
  cwd?: string;
}

export interface CreatedPackage {
  kind: ScaffoldKind;
  name: string;
  /** Absolute path of the package's folder. */
  dir: string;
  /** The files written, relative to `dir`. */
  files: string[];
  /** The next steps, one line that runs as printed. */
  next: string;
}

const shown = (path: string, cwd: string) => relative(cwd, path) || '.';

/** Writes an adapter or estimator package into `dir`: what `create-skillrl adapter|estimator <dir>` does. */
export function createPackage(
  kind: ScaffoldKind,
  dir: string,
  options: CreatePackageOptions = {},
): CreatedPackage {
  if (kind !== 'adapter' && kind !== 'estimator') {
    throw new ScaffoldError('kind', `"${String(kind)}" is not a package kind`, 'use adapter or estimator');
  }
  const name = packageNameFor(dir, options.name);
  if (kind === 'estimator') refuseBuiltinEstimatorName(name, options.name === undefined ? '<dir>' : '--name');
  const files = writeScaffold(
    dir,
    kind === 'adapter' ? adapterScaffold(name) : estimatorScaffold(name),
    Boolean(options.force),
  );
  const root = resolve(dir);
  return {
    kind,
    name,
    dir: root,
    files,
    next: scaffoldNextSteps(kind, shown(root, options.cwd ?? process.cwd())),
  };
}

export interface CreatedRunConfig {
  template: RunTemplate;
  /** Absolute paths written: the config, then its data files. */
  files: string[];
  next: string;
}

/** Writes a shipped run config to `file`: what `create-skillrl run <file> --template <name>` does. */
export function createRunConfig(
  file: string,
  template: string,
  options: { force?: boolean; cwd?: string } = {},
): CreatedRunConfig {
  const { template: t, written } = writeRunTemplate(file, template, Boolean(options.force));
  return {
    template: t,
    files: written,
    next: runNextSteps(t, shown(written[0] as string, options.cwd ?? process.cwd())),
  };
}
