import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ScaffoldError } from './scaffold-error.js';

/** Writes files under `dir` (created; refused when it already holds files, unless `force`). */
export function writeScaffold(dir: string, files: Record<string, string>, force = false): string[] {
  const root = resolve(dir);
  if (existsSync(root) && readdirSync(root).length > 0 && !force) {
    throw new ScaffoldError(
      '<dir>',
      `${root} is not empty`,
      'choose a new folder (or pass --force to write into it)',
    );
  }
  const written: string[] = [];
  for (const [relative, text] of Object.entries(files)) {
    const file = join(root, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    written.push(relative);
  }
  return written;
}

/** An npm package name from a folder name: lowercase, `[a-z0-9._-]`, no leading dot or underscore. */
export function packageNameFor(dir: string, name?: string): string {
  const raw = name ?? basename(resolve(dir));
  const clean = raw
    .toLowerCase()
    .replace(/[^a-z0-9@/._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  if (!/^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/.test(clean)) {
    throw new ScaffoldError(
      name === undefined ? '<dir>' : '--name',
      `"${raw}" does not make an npm package name`,
      'pass --name my-package',
    );
  }
  return clean;
}

/** The part of a package name after its scope, usable as a component name. */
export function shortName(packageName: string): string {
  return packageName.split('/').pop() as string;
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
