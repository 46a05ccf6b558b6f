import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from './canonical-json.js';

/** What the cache keeps per request: the parsed response and the latency first measured for it. */
export interface CachedResponse {
  response: unknown;
  latencyMs: number;
}

export interface RequestCache {
  /** sha256 hex of the canonical JSON of the request. */
  key(request: unknown): string;
  get(key: string): Promise<CachedResponse | undefined>;
  set(key: string, entry: CachedResponse): Promise<void>;
  stats(): { hits: number; misses: number; writes: number };
}

let tmpCounter = 0;

/**
 * An on-disk cache of model responses, content-addressed by the full request (model, messages, tools,
 * sampling parameters, per-step seed; never the endpoint or the key). Entries live at
 * `<dir>/<first two hex>/<sha256>.json` and are written by rename, so a crashed run leaves no half entry.
 */
export function createRequestCache(dir: string): RequestCache {
  let hits = 0;
  let misses = 0;
  let writes = 0;
  const made = new Set<string>();
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    key: (request) => createHash('sha256').update(canonicalJson(request)).digest('hex'),
    async get(key) {
      try {
        const entry = JSON.parse(await readFile(pathOf(key), 'utf8')) as CachedResponse;
        hits++;
        return entry;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        misses++;
        return undefined;
      }
    },
    async set(key, entry) {
      const sub = join(dir, key.slice(0, 2));
      if (!made.has(sub)) {
        await mkdir(sub, { recursive: true });
        made.add(sub);
      }
      const tmp = join(sub, `.tmp-${process.pid}-${tmpCounter++}-${key}`);
      await writeFile(tmp, JSON.stringify(entry));
      await rename(tmp, pathOf(key));
      writes++;
    },
    stats: () => ({ hits, misses, writes }),
  };
}
