import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { OutsideDirError } from '../errors/outside-dir-error.js';

/** True when `child` is `root` itself or lies below it (both absolute). */
export function isWithin(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of `relativePath` under `root`, or an `OutsideDirError`. Checked in two passes because each
 * catches what the other cannot: the text (no absolute path, no `..` segment, no NUL) before anything touches
 * the disk, then the real path of what exists (a symlink under the folder that points out of it).
 * `realRoot` is `root`'s own real path (a served folder may itself be reached through a symlink).
 */
export function resolveInside(root: string, realRoot: string, relativePath: string): string {
  if (relativePath.includes('\0')) throw new OutsideDirError(relativePath, 'it holds a NUL byte');
  if (isAbsolute(relativePath) || /^[a-zA-Z]:/.test(relativePath) || relativePath.startsWith('\\')) {
    throw new OutsideDirError(relativePath, 'it is an absolute path');
  }
  if (relativePath.split(/[/\\]/).some((part) => part === '..')) {
    throw new OutsideDirError(relativePath, 'it climbs out with ".."');
  }
  const target = resolve(root, relativePath);
  if (!isWithin(root, target)) throw new OutsideDirError(relativePath, 'it resolves outside the folder');
  if (!existsSync(target)) return target;
  const real = realpathSync(target);
  if (!isWithin(realRoot, real)) {
    throw new OutsideDirError(relativePath, 'it is a symlink that points outside the folder');
  }
  return real;
}

/** Whether an existing absolute path really lies under `realRoot` once symlinks are followed. */
export function reallyInside(realRoot: string, path: string): boolean {
  try {
    return isWithin(realRoot, realpathSync(path));
  } catch {
    // Gone between listing and checking (a stream rotating): nothing to read, nothing to refuse.
    return true;
  }
}
