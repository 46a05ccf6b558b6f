import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/**
 * A folder (a policy checkpoint: config.json + weights.bin) as one buffer, so a worker on another machine
 * gets the exact bytes: a JSON list of [relative path, base64] in name order, so equal folders hash equal.
 */
export async function packDir(dir: string): Promise<Buffer> {
  const files: [string, string][] = [];
  const walk = async (d: string) => {
    for (const entry of (await readdir(d, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.push([relative(dir, path).split('\\').join('/'), (await readFile(path)).toString('base64')]);
    }
  };
  await walk(dir);
  return Buffer.from(JSON.stringify(files));
}

/** Writes a `packDir` buffer out under `dir`. */
export async function unpackDir(data: Buffer, dir: string): Promise<void> {
  const files = JSON.parse(data.toString('utf8')) as [string, string][];
  for (const [name, base64] of files) {
    if (name.split('/').includes('..')) throw new Error(`packed folder names a path outside it: ${name}`);
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, Buffer.from(base64, 'base64'));
  }
}
