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
  /**
   * Asked before each reconnect: true ends the connection instead. BullMQ duplicates a worker's connection
   * for its blocking reads with the same options, so one flag also ends that copy, whose retry timer would
   * otherwise keep a stopping process alive while Redis is down.
   */
  stopped?: () => boolean;
  /** Told of each copy BullMQ makes of this connection (`duplicate()`), so a stop can end it too (`endRedis`). */
  onCopy?: (copy: Redis) => void;
}

/**
 * One ioredis connection for BullMQ. BullMQ 6 takes a client instance in native ESM, and its blocking
 * calls need `maxRetriesPerRequest: null`.
 */
export function connectRedis(url: string, field = 'workers.redis', options: ConnectOptions = {}): Redis {
  checkRedisUrl(url, field);
  const stopped = options.stopped;
  const client = new Redis(url, {
    maxRetriesPerRequest: null,
    // A socket still connecting to a Redis that is down does not close on end(): ioredis destroys it after
    // this long, and until then its timer keeps a stopping process alive (default 2 s).
    disconnectTimeout: 200,
    ...(options.connectTimeoutMs !== undefined ? { connectTimeout: options.connectTimeoutMs } : {}),
    // Reconnect quickly after a Redis restart: the run notices lost jobs and enqueues them again.
    retryStrategy: (times) => (stopped?.() ? null : Math.min(times * 100, 1000)),
  });
  const onCopy = options.onCopy;
  if (onCopy) {
    const duplicate = client.duplicate.bind(client);
    client.duplicate = (override) => {
      const copy = duplicate(override);
      onCopy(copy);
      return copy;
    };
  }
  return client;
}

interface RedisInternals {
  setStatus?(status: string): void;
  flushQueue?(error: Error): void;
}

/**
 * Ends `client` now, whatever its state, rejecting the commands it holds. ioredis 5's `disconnect()` during
 * the wait between two reconnects clears that timer but leaves the client "reconnecting" for ever, every
 * queued command pending; BullMQ races a blocking read against a watchdog timer (its block time plus 1 s)
 * that would then keep a stopping process alive. Such a client is ended here the way ioredis ends one
 * whose retries are over (optional calls: should those internals go, `disconnect()` alone remains).
 */
export function endRedis(client: Redis): void {
  if (client.status === 'end') return;
  const waiting = client.status === 'reconnecting';
  client.disconnect();
  if (waiting && client.status === 'reconnecting') {
    const internals = client as unknown as RedisInternals;
    internals.setStatus?.('end');
    internals.flushQueue?.(new Error('Connection is closed.'));
  }
}
