import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/** Prefix of in-flight temp files; a crash can leave one behind, and `openRunStore` removes them. */
export const TEMP_PREFIX = '.tmp-';

/** fsyncs a directory so that a rename or a new entry in it survives power loss (best effort). */
export function fsyncDir(dir: string): void {
  // Makes the rename itself durable. Some file systems refuse fsync on a directory; the rename is
  // still atomic there, only its durability across power loss is weaker.
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces `path` with `data` atomically: write a temp file in the same directory, fsync it, rename it over
 * the target, fsync the directory. A reader (or a crash) sees the old content or the new, never a mix.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  const tmp = join(dir, `${TEMP_PREFIX}${process.pid}-${Date.now()}-${counter++}-${basename(path)}`);
  const fd = openSync(tmp, 'w');
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncDir(dir);
}
