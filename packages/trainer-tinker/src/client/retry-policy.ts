import { InvalidArgumentError } from '@skillrl/core';

/**
 * How patient the client is, with the Tinker SDK v0.25.0's numbers as defaults (read from
 * src/tinker/_constants.py, src/tinker/_base_client.py and src/tinker/lib/internal_client_holder.py):
 *
 * - **Retries**: `maxRetries` (10) retries of an HTTP call after the first attempt, waiting
 *   `min(maxDelayMs, baseDelayMs·2^k)·(1 − 0.25·u)` (0.5 s doubling to 10 s, the SDK's `_calculate_retry_timeout`),
 *   or what the server's `retry-after-ms` / `Retry-After` asks when that is at most `maxRetryAfterMs` (60 s).
 * - **Outage**: once those are spent, the call goes on being retried until `outageMs` (5 minutes) have passed
 *   since its first attempt, waiting `min(2^k s, outageMaxDelayMs)` (30 s) between tries (the SDK's
 *   `execute_with_retries`).
 * - **Billing**: a 402 pauses the call, trying again every `billingWaitMs` (5 s), for up to `billingPauseMs`
 *   (1 hour) in all; every pause is reported (`onRetry` with `reason: 'billing'`) with the server's reason.
 * - **Sampling backpressure**: a 429 on `asample` waits 1 s (5 s for a prompt over 128 KiB) or the server's
 *   `Retry-After`, and is retried with no limit on the count: only the call's `signal` (or the client's) ends it.
 *
 * `timeScale` multiplies every wait and every budget (1 in production; tests use e.g. 0.001, so the same
 * proportions play out in milliseconds).
 */
export interface TinkerRetryOptions {
  /** Retries after the first attempt of an HTTP call, before the outage phase. Default 10 (the SDK's). */
  maxRetries?: number;
  /** First backoff. Default 500 ms (the SDK's `INITIAL_RETRY_DELAY`). */
  baseDelayMs?: number;
  /** Backoff cap of the retry phase. Default 10 000 ms (the SDK's `MAX_RETRY_DELAY`). */
  maxDelayMs?: number;
  /** A server's `retry-after(-ms)` longer than this is ignored in favour of the backoff. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** How long after its first attempt a failing call is still retried. Default 300 000 ms (5 minutes). */
  outageMs?: number;
  /** Backoff cap of the outage phase. Default 30 000 ms. */
  outageMaxDelayMs?: number;
  /** How long a call waits out 402 (billing) answers in all. Default 3 600 000 ms (1 hour). */
  billingPauseMs?: number;
  /** Wait between tries while billing pauses a call. Default 5 000 ms. */
  billingWaitMs?: number;
  /** Wait after a 429 on sampling, for a small / a large (> 128 KiB) prompt. Default [1 000, 5 000] ms. */
  samplingBackoffMs?: [number, number];
  /** Multiplies every wait and budget above (and the server's `Retry-After`). Default 1. */
  timeScale?: number;
}

export type ResolvedRetryPolicy = Required<TinkerRetryOptions>;

function nonNegative(name: string, value: number | undefined, fallback: number, integer = false): number {
  const v = value ?? fallback;
  if (!(typeof v === 'number' && v >= 0 && (Number.isFinite(v) || v === Number.POSITIVE_INFINITY))) {
    throw new InvalidArgumentError(name, `expected a number >= 0, got ${value}`);
  }
  if (integer && !Number.isInteger(v)) {
    throw new InvalidArgumentError(name, `expected an integer >= 0, got ${value}`);
  }
  return v;
}

export function resolveRetryPolicy(options: TinkerRetryOptions = {}): ResolvedRetryPolicy {
  const backoff = options.samplingBackoffMs ?? [1_000, 5_000];
  if (!Array.isArray(backoff) || backoff.length !== 2) {
    throw new InvalidArgumentError('retry.samplingBackoffMs', 'expected [small prompt ms, large prompt ms]');
  }
  const timeScale = nonNegative('retry.timeScale', options.timeScale, 1);
  if (!(timeScale > 0 && Number.isFinite(timeScale))) {
    throw new InvalidArgumentError('retry.timeScale', `expected a finite number > 0, got ${timeScale}`);
  }
  return {
    maxRetries: nonNegative('retry.maxRetries', options.maxRetries, 10, true),
    baseDelayMs: nonNegative('retry.baseDelayMs', options.baseDelayMs, 500),
    maxDelayMs: nonNegative('retry.maxDelayMs', options.maxDelayMs, 10_000),
    maxRetryAfterMs: nonNegative('retry.maxRetryAfterMs', options.maxRetryAfterMs, 60_000),
    outageMs: nonNegative('retry.outageMs', options.outageMs, 300_000),
    outageMaxDelayMs: nonNegative('retry.outageMaxDelayMs', options.outageMaxDelayMs, 30_000),
    billingPauseMs: nonNegative('retry.billingPauseMs', options.billingPauseMs, 3_600_000),
    billingWaitMs: nonNegative('retry.billingWaitMs', options.billingWaitMs, 5_000),
    samplingBackoffMs: [
      nonNegative('retry.samplingBackoffMs[0]', backoff[0], 1_000),
      nonNegative('retry.samplingBackoffMs[1]', backoff[1], 5_000),
    ],
    timeScale,
  };
}

/** The wait before retry `k` (0-based) of the retry phase, `u` uniform in [0, 1). */
export function retryDelayMs(policy: ResolvedRetryPolicy, k: number, u: number): number {
  const d = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(k, 1000));
  return d * (1 - 0.25 * u) * policy.timeScale;
}

/** The wait before try `k` (0-based) of the outage phase: 1 s, 2 s, 4 s … up to `outageMaxDelayMs`. */
export function outageDelayMs(policy: ResolvedRetryPolicy, k: number): number {
  return Math.min(1_000 * 2 ** Math.min(k, 1000), policy.outageMaxDelayMs) * policy.timeScale;
}

/** The SDK's threshold between a small and a large prompt, for the sampling backoff. */
export const SAMPLING_LARGE_PROMPT_BYTES = 128 * 1024;
