import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunStoreError } from '../errors/run-store-error.js';

/** What the store was doing when the file system refused: said first in the message. */
export type StoreWrite =
  | 'create the run directory'
  | 'append a record'
  | 'write the file'
  | 'rotate the stream into a segment'
  | 'compress a closed segment'
  | 'drop a torn last line'
  | 'remove a temp file';

/**
 * The cause in words, from the errno code. Node reports the code of the last system call, which can hide
 * the real cause (see `makeDirectory`); the code itself stays in the message so it can be searched.
 */
function causeInWords(code: string | undefined, message: string): string {
  switch (code) {
    case 'EROFS':
      return 'the file system is read-only (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code}): this user may not write there`;
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case 'EDQUOT':
      return 'the disk quota is used up (EDQUOT)';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory (ENOTDIR)';
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code})`;
    default:
      return code ? `${message} (${code})` : message;
  }
}

const FULL = new Set(['ENOSPC', 'EDQUOT']);
const REFUSED = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * A file-system error as a `RunStoreError` naming the path, what the store was doing, the real cause, and
 * what to do. `resumeDir` is the run directory once the store is open: a run stopped by a full disk loses
 * nothing that was complete, so the fix there is to free space and resume it.
 */
export function writeError(
  path: string,
  doing: StoreWrite,
  error: unknown,
  resumeDir?: string,
): RunStoreError {
  if (RunStoreError.isInstance(error)) return error;
  const e = error as NodeJS.ErrnoException;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const cause = causeInWords(code, e instanceof Error ? e.message : String(error));
  let fix = '';
  if (code && FULL.has(code)) {
    fix = resumeDir
      ? ` Every record completed before it is kept. Free some space, then continue the run with \`skillrl resume ${resumeDir}\`.`
      : ' Free some space, then try again.';
  } else if (code && REFUSED.has(code)) {
    // No command's flag is named here: this store serves `run` (which has --run-dir) and `resume` (which
    // does not) alike. Once the store is open the run exists, and what continues it is named instead.
    fix = resumeDir
      ? ` Every record completed before it is kept. Make ${resumeDir} writable, then continue the run with \`skillrl resume ${resumeDir}\`.`
      : ' Choose a writable run directory, or make this one writable.';
  }
  return new RunStoreError(path, `cannot ${doing}: ${cause}.${fix}`, { cause: error });
}

/**
 * `mkdir -p` that reports the real cause and the folder it concerns. Node's recursive mkdir answers ENOENT
 * when a missing parent cannot be created on a read-only file system, and names the deepest path, not the
 * folder it could not create: the first missing ancestor's own error is what the user needs.
 */
export function makeDirectory(path: string, resumeDir?: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    let cause = error;
    let missing = path;
    while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
    if (missing !== path || (error as NodeJS.ErrnoException).code === 'ENOENT') {
      // Created alone, the first missing folder fails with the code and the path that matter.
      try {
        mkdirSync(missing);
        mkdirSync(path, { recursive: true });
        return;
      } catch (real) {
        cause = real;
      }
    }
    const at = (cause as NodeJS.ErrnoException).path ?? path;
    throw writeError(at, 'create the run directory', cause, resumeDir);
  }
}

/** Runs one file-system write, turning its failure into `writeError`'s message. */
export function guardWrite<T>(path: string, doing: StoreWrite, write: () => T, resumeDir?: string): T {
  try {
    return write();
  } catch (error) {
    throw writeError(path, doing, error, resumeDir);
  }
}
