import { InvalidArgumentError } from '@skillrl/core';
import { abortableSleep } from './abortable-sleep.js';

export interface RateLimitOptions {
  requestsPerMinute?: number;
  /** Tokens (prompt estimate + `maxTokens`) per minute. */
  tokensPerMinute?: number;
  /** Clock in milliseconds; replaceable in tests. */
  now?: () => number;
}

export interface RateLimiter {
  /** Waits until one request costing `tokens` fits both budgets, then spends them. */
  acquire(tokens: number, signal?: AbortSignal): Promise<void>;
}

interface Bucket {
  capacity: number;
  level: number;
  perMs: number;
}

/**
 * Token buckets for requests and tokens per minute. Each starts full (a minute's worth) and refills
 * continuously, so short bursts pass and the long-run rate never exceeds the limit. Waiters are served in
 * arrival order, so a large request is not starved by a stream of small ones.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? (() => performance.now());
  const buckets: { bucket: Bucket; cost: (tokens: number) => number }[] = [];
  const make = (name: string, perMinute: number | undefined, cost: (tokens: number) => number) => {
    if (perMinute === undefined) return;
    if (!(Number.isFinite(perMinute) && perMinute > 0)) {
      throw new InvalidArgumentError(name, `expected a number > 0, got ${perMinute}`);
    }
    buckets.push({ bucket: { capacity: perMinute, level: perMinute, perMs: perMinute / 60_000 }, cost });
  };
  make('requestsPerMinute', options.requestsPerMinute, () => 1);
  make('tokensPerMinute', options.tokensPerMinute, (tokens) => tokens);
  let last = now();
  let queue: Promise<void> = Promise.resolve();

  const refill = () => {
    const t = now();
    const elapsed = Math.max(0, t - last);
    last = t;
    for (const { bucket } of buckets)
      bucket.level = Math.min(bucket.capacity, bucket.level + elapsed * bucket.perMs);
  };

  const take = async (tokens: number, signal?: AbortSignal) => {
    for (;;) {
      refill();
      let wait = 0;
      for (const { bucket, cost } of buckets) {
        // A request larger than the whole budget would wait forever; it goes through once the bucket is full.
        const need = Math.min(cost(tokens), bucket.capacity);
        if (bucket.level < need) wait = Math.max(wait, (need - bucket.level) / bucket.perMs);
      }
      if (wait === 0) {
        for (const { bucket, cost } of buckets) bucket.level -= Math.min(cost(tokens), bucket.capacity);
        return;
      }
      await abortableSleep(Math.ceil(wait), signal);
    }
  };

  return {
    acquire(tokens, signal) {
      if (buckets.length === 0) return Promise.resolve();
      const turn = queue.then(() => take(tokens, signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
