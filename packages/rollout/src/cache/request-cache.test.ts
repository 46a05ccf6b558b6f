import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { createRequestCache } from './request-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'skillrl-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('request cache', () => {
  it('canonical JSON sorts keys at every depth and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('keys by content, whatever the field order, and round-trips entries', async () => {
    const cache = createRequestCache(dir);
    const k1 = cache.key({ model: 'm', messages: [{ role: 'user', content: 'hi' }], seed: 1 });
    const k2 = cache.key({ seed: 1, messages: [{ content: 'hi', role: 'user' }], model: 'm' });
    expect(k1).toBe(k2);
    expect(k1).toMatch(/^[0-9a-f]{64}$/);
    expect(cache.key({ model: 'm', messages: [], seed: 2 })).not.toBe(
      cache.key({ model: 'm', messages: [], seed: 1 }),
    );
    expect(await cache.get(k1)).toBeUndefined();
    await cache.set(k1, { response: { choices: [] }, latencyMs: 12 });
    expect(await createRequestCache(dir).get(k1)).toEqual({ response: { choices: [] }, latencyMs: 12 });
    expect(readdirSync(join(dir, k1.slice(0, 2)))).toEqual([`${k1}.json`]);
    expect(cache.stats()).toEqual({ hits: 0, misses: 1, writes: 1 });
  });
});
