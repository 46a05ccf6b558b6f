import { type Rng, redactSecrets } from '@skillrl/core';
import { abortableSleep } from './abortable-sleep.js';
import { ModelCallError } from './model-call-error.js';
import { isRetryable, type ResolvedRetryOptions, retryDelay, statusOf } from './retry-policy.js';

export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  error: unknown;
}

export interface WithRetriesOptions {
  retry: ResolvedRetryOptions;
  /**
   * Jitter source; seed it per request so that a run's waits are reproducible. A function is called at the
   * first retry only: most calls never retry, and deriving a stream costs a hash of its key.
   */
  rng: Rng | (() => Rng);
  signal?: AbortSignal;
  /** What the call is, for error messages ("POST http://…/chat/completions"). */
  label: string;
  onRetry?: (event: RetryEvent) => void;
}

function describe(error: unknown): string {
  const e = error as { message?: unknown; constructor?: { name?: string } } | null;
  const name = e?.constructor?.name ?? 'Error';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return `${name}: ${message}`;
}

/**
 * Runs `call` until it succeeds, a non-retryable error occurs, the budget is spent or `signal` aborts.
 * Aborts propagate as-is (the caller asked for them); every other final failure is a `ModelCallError`.
 */
export async function withRetries<T>(
  call: (attempt: number) => Promise<T>,
  options: WithRetriesOptions,
): Promise<T> {
  const { retry, signal, label } = options;
  let rng = typeof options.rng === 'function' ? undefined : options.rng;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw signal.reason;
    try {
      return await call(attempt);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const retryable = isRetryable(error);
      if (!retryable || attempt >= retry.maxRetries) {
        const status = statusOf(error);
        const why = retryable ? `gave up after ${attempt + 1} attempts` : 'not retryable';
        throw new ModelCallError(redactSecrets(`${label} failed (${why}): ${describe(error)}`), {
          attempts: attempt + 1,
          retryable,
          cause: error,
          ...(status === undefined ? {} : { status }),
        });
      }
      rng ??= (options.rng as () => Rng)();
      const delayMs = retryDelay(attempt, error, retry, rng);
      options.onRetry?.({ retry: attempt + 1, delayMs, error });
      await abortableSleep(delayMs, signal);
    }
  }
}
