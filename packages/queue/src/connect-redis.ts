import { InvalidArgumentError, registerSecret } from '@skillrl/core';
import { Redis } from 'ioredis';

/** The URL as it may be shown: the password (if any) replaced, so it never reaches a log or an error. */
export function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable Redis URL>';
  }
}

/** Checks `url` is a redis:// or rediss:// URL; `field` names the config field in the error. */
export function checkRedisUrl(url: unknown, field = 'workers.redis'): string {
  if (typeof url !== 'string' || url === '') {
    throw new InvalidArgumentError(field, 'expected a Redis URL such as redis://127.0.0.1:6379');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError(field, 'expected a Redis URL such as redis://127.0.0.1:6379');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new InvalidArgumentError(
      field,
      `expected a redis:// or rediss:// URL, got ${parsed.protocol}// (e.g. redis://127.0.0.1:6379)`,
    );
  }
  // A password in the URL is a secret: every message that might quote it is redacted from now on.
  if (parsed.password) registerSecret(decodeURIComponent(parsed.password));
  return url;
}

export interface ConnectOptions {
  /** Give up connecting after this long (default: keep retrying, as BullMQ workers should). */
  connectTimeoutMs?: number;
}

/**
 * One ioredis connection for BullMQ. BullMQ 6 takes a client instance in native ESM, and its blocking
 * calls need `maxRetriesPerRequest: null`.
 */
export function connectRedis(url: string, field = 'workers.redis', options: ConnectOptions = {}): Redis {
  checkRedisUrl(url, field);
  return new Redis(url, {
    maxRetriesPerRequest: null,
    ...(options.connectTimeoutMs !== undefined ? { connectTimeout: options.connectTimeoutMs } : {}),
    // Reconnect quickly after a Redis restart: the run notices lost jobs and enqueues them again.
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
}
