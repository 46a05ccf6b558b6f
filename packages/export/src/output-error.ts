import { InvalidArgumentError } from '@skillrl/core';

const OUTPUT_CAUSES: Record<string, string> = {
  EROFS: 'the file system is read-only (EROFS)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'permission denied (EPERM)',
  ENOSPC: 'the disk is full (ENOSPC)',
  EDQUOT: 'the disk quota is used up (EDQUOT)',
  ENOTDIR: 'a part of the path is a file, not a directory (ENOTDIR)',
  ENOENT: 'its folder does not exist (ENOENT)',
};

/** A refused write of the output file, with the path, the cause in words and `--out` (a run may be read-only). */
export function outputError(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  const cause = code ? OUTPUT_CAUSES[code] : undefined;
  if (!cause) return error;
  return new InvalidArgumentError(
    '--out',
    `cannot write ${path}: ${cause}. Nothing was written; write the rows elsewhere with --out <file>.`,
    { cause: error },
  );
}
