import { createRng } from '@skillrl/core';
import fc from 'fast-check';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { isRetryable, resolveRetryOptions, retryAfterMs, retryDelay } from './retry-policy.js';

const apiError = (status: number, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { message: 'x' }, 'x', new Headers(headers));

describe('retry policy', () => {
  it('retries 408, 409, 429, 5xx, connection errors, timeouts and truncated bodies; not 4xx or aborts', () => {
    for (const status of [408, 409, 429, 500, 502, 503]) expect(isRetryable(apiError(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(isRetryable(apiError(status))).toBe(false);
    expect(isRetryable(new OpenAI.APIConnectionError({ message: 'reset' }))).toBe(true);
    expect(isRetryable(new OpenAI.APIConnectionTimeoutError())).toBe(true);
    expect(isRetryable(new SyntaxError('Unexpected end of JSON input'))).toBe(true);
    expect(isRetryable(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryable(new Error('wrapper', { cause: Object.assign(new Error(), { code: 'EPIPE' }) }))).toBe(
      true,
    );
    expect(isRetryable(new OpenAI.APIUserAbortError())).toBe(false);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(isRetryable(new Error('plain'))).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });

  it('reads retry-after-ms, Retry-After seconds and Retry-After dates', () => {
    expect(retryAfterMs(apiError(429, { 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(apiError(429, { 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(apiError(429, { 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(apiError(429))).toBeUndefined();
    expect(retryAfterMs(new Error('no headers'))).toBeUndefined();
  });

  it('honours Retry-After up to the cap, else backs off exponentially with equal jitter', () => {
    const options = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 });
    const rng = createRng(1);
    expect(retryDelay(3, apiError(429, { 'retry-after-ms': '700' }), options, rng)).toBe(700);
    // 9 s asked is above maxRetryAfterMs: backoff for retry 0 is in [50, 100].
    const d = retryDelay(0, apiError(429, { 'retry-after': '9' }), options, rng);
    expect(d).toBeGreaterThanOrEqual(50);
    expect(d).toBeLessThanOrEqual(100);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer(), (retry, seed) => {
        // cap = min(1000, 100 · 2^retry); delay in [cap/2, cap].
        const cap = Math.min(1000, 100 * 2 ** retry);
        const delay = retryDelay(retry, apiError(500), options, createRng(seed));
        return (
          delay >= cap / 2 &&
          delay <= cap &&
          delay === retryDelay(retry, apiError(500), options, createRng(seed))
        );
      }),
    );
  });

  it('rejects budgets that cannot work', () => {
    expect(() => resolveRetryOptions({ maxRetries: -1 })).toThrow(/retry.maxRetries/);
    expect(() => resolveRetryOptions({ maxRetries: 1.5 })).toThrow(/integer/);
    expect(() => resolveRetryOptions({ baseDelayMs: Number.NaN })).toThrow(/retry.baseDelayMs/);
  });
});
