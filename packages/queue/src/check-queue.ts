import { Queue } from 'bullmq';
import { connectRedis, describeRedisUrl } from './connect-redis.js';
import { DEFAULT_QUEUE, KEY_PREFIX } from './queue-keys.js';

export interface QueueCheck {
  /** Redis answered PING within the time allowed. */
  reachable: boolean;
  /** Workers listening on the queue (0 when Redis is unreachable). */
  workers: number;
  /** The server's version, when reachable. */
  redisVersion?: string;
  /** Why it is not reachable (redacted), when it is not. */
  error?: string;
  /** The URL as it may be shown (password hidden). */
  url: string;
}

/** For `skillrl check`: is Redis reachable, and is any worker listening on the queue? */
export async function checkEpisodeQueue(options: {
  redis: string;
  queue?: string;
  timeoutMs?: number;
}): Promise<QueueCheck> {
  const url = describeRedisUrl(options.redis);
  const timeoutMs = options.timeoutMs ?? 3000;
  const redis = connectRedis(options.redis, 'workers.redis', { connectTimeoutMs: timeoutMs });
  let lastError = '';
  redis.on('error', (e: Error) => {
    lastError = e.message;
  });
  try {
    const pong = await Promise.race([
      redis.ping(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(lastError || `no answer within ${timeoutMs} ms`)), timeoutMs),
      ),
    ]);
    if (pong !== 'PONG') return { reachable: false, workers: 0, url, error: `PING answered ${pong}` };
    const info = await redis.info('server');
    const version = /redis_version:([^\r\n]+)/.exec(info)?.[1];
    const queue = new Queue(options.queue ?? DEFAULT_QUEUE, { connection: redis, prefix: KEY_PREFIX });
    try {
      const workers = await queue.getWorkersCount();
      return { reachable: true, workers, url, ...(version ? { redisVersion: version } : {}) };
    } finally {
      await queue.close();
    }
  } catch (error) {
    return {
      reachable: false,
      workers: 0,
      url,
      error: error instanceof Error ? error.message.replaceAll(options.redis, url) : String(error),
    };
  } finally {
    redis.disconnect();
  }
}
