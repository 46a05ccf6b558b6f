import { describe, expect, it } from 'vitest';
import { createEndpointPool } from './endpoint-pool.js';

describe('createEndpointPool', () => {
  it('picks the endpoint with the fewest requests in flight, round-robin on ties', () => {
    const pool = createEndpointPool(['a', 'b', 'c'], (url) => url);
    const first = [pool.acquire(), pool.acquire(), pool.acquire()].map((e) => e.baseURL);
    expect(new Set(first)).toEqual(new Set(['a', 'b', 'c']));
    const b = pool.endpoints[1];
    if (!b) throw new Error('missing endpoint');
    pool.release(b);
    // b now has 0 in flight, a and c have 1: b must be chosen whatever the cursor says.
    expect(pool.acquire().baseURL).toBe('b');
    expect(pool.endpoints.map((e) => e.inFlight)).toEqual([1, 1, 1]);
    expect(() => createEndpointPool([], (u) => u)).toThrow(/baseURLs/);
  });
});
