import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitConcurrency } from './limit-concurrency.js';

describe('limitConcurrency', () => {
  it('never runs more than the limit at once, and runs every task', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 20 }),
        async (limit, delays) => {
          const run = limitConcurrency(limit);
          let active = 0;
          let peak = 0;
          const results = await Promise.all(
            delays.map((delay, i) =>
              run(async () => {
                active += 1;
                peak = Math.max(peak, active);
                await new Promise((r) => setTimeout(r, delay));
                active -= 1;
                return i;
              }),
            ),
          );
          expect(results).toEqual(delays.map((_, i) => i));
          expect(peak).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('frees the slot when a task throws', async () => {
    const run = limitConcurrency(1);
    await expect(run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await run(async () => 7)).toBe(7);
  });
});
