import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.js';

describe('createRateLimiter', () => {
  it('lets a minute of requests burst, then paces at the per-minute rate', async () => {
    // 6000 rpm = 0.1 request per ms, bucket of 6000. Spending 6010 within T ms needs 6000 + 0.1·T >= 6010,
    // so T >= 100 ms however fast the loop runs.
    const limiter = createRateLimiter({ requestsPerMinute: 6000 });
    const t0 = performance.now();
    for (let i = 0; i < 6010; i++) await limiter.acquire(1);
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(99);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('budgets tokens per minute, and lets a request larger than the budget through when full', async () => {
    // 60 000 tpm = 1 token per ms: after spending 60 000, a 100-token request waits about 100 ms.
    const limiter = createRateLimiter({ tokensPerMinute: 60_000 });
    await limiter.acquire(60_000);
    const t0 = performance.now();
    await limiter.acquire(100);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(85);
    const big = createRateLimiter({ tokensPerMinute: 10 });
    await big.acquire(1_000_000);
  });

  it('aborts a waiting acquire and rejects bad limits', async () => {
    const limiter = createRateLimiter({ requestsPerMinute: 1 });
    await limiter.acquire(1);
    const controller = new AbortController();
    const waiting = limiter.acquire(1, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(() => createRateLimiter({ requestsPerMinute: 0 })).toThrow(/requestsPerMinute/);
    await createRateLimiter({}).acquire(5);
  });
});
