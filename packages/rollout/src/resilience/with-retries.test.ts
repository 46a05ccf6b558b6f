import { createRng } from '@skillrl/core';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from './model-call-error.js';
import { resolveRetryOptions } from './retry-policy.js';
import { withRetries } from './with-retries.js';

const retry = resolveRetryOptions({ maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4 });
const base = { retry, rng: createRng(0), label: 'call' };

describe('withRetries', () => {
  it('retries retryable failures until success', async () => {
    const attempts: number[] = [];
    const retries: number[] = [];
    const result = await withRetries(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw OpenAI.APIError.generate(503, undefined, 'busy', new Headers());
        return 'ok';
      },
      { ...base, onRetry: (e) => retries.push(e.retry) },
    );
    expect(result).toBe('ok');
    expect(attempts).toEqual([0, 1, 2]);
    expect(retries).toEqual([1, 2]);
  });

  it('gives up after maxRetries + 1 attempts with a ModelCallError, and at once when not retryable', async () => {
    let calls = 0;
    const spent = await withRetries(async () => {
      calls++;
      throw OpenAI.APIError.generate(500, undefined, 'down', new Headers());
    }, base).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(ModelCallError.isInstance(spent)).toBe(true);
    expect(spent).toMatchObject({ attempts: 4, status: 500, retryable: true });
    expect((spent as Error).message).toMatch(/gave up after 4 attempts/);

    calls = 0;
    const fatal = await withRetries(async () => {
      calls++;
      throw OpenAI.APIError.generate(401, undefined, 'Incorrect API key sk-abcdefgh12345678', new Headers());
    }, base).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(fatal).toMatchObject({ attempts: 1, status: 401, retryable: false });
    expect((fatal as Error).message).not.toContain('sk-abcdefgh12345678');
  });

  it('stops waiting when the signal aborts, with the abort reason', async () => {
    const controller = new AbortController();
    const slow = resolveRetryOptions({ maxRetries: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 });
    const pending = withRetries(
      async () => {
        setTimeout(() => controller.abort(new Error('stop')), 5);
        throw OpenAI.APIError.generate(500, undefined, 'x', new Headers());
      },
      { ...base, retry: slow, signal: controller.signal },
    );
    const t0 = performance.now();
    await expect(pending).rejects.toThrow('stop');
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
