import type { RunConfig } from '@skillrl/core';
import type * as Queue from '@skillrl/queue';
import { loadQueue } from './load-queue.js';

/** For `skillrl check`: Redis reachable and a worker listening, or a problem saying what to do. */
export async function checkWorkers(
  config: RunConfig,
  configPath: string,
): Promise<{ ok: boolean; message: string }> {
  const workers = config.workers;
  if (!workers) return { ok: true, message: '' };
  const mod = await loadQueue<typeof Queue>(configPath);
  const check = await mod.checkEpisodeQueue({
    redis: workers.redis,
    ...(workers.queue ? { queue: workers.queue } : {}),
  });
  const queue = workers.queue ?? mod.DEFAULT_QUEUE;
  if (!check.reachable) {
    return {
      ok: false,
      message: `workers.redis: Redis at ${check.url} did not answer (${check.error ?? 'no reply'}); start it (apt-get install redis-server, or your own) or fix the URL`,
    };
  }
  if (check.workers === 0) {
    return {
      ok: false,
      message: `workers: Redis ${check.redisVersion ?? ''} at ${check.url} answers, but no worker listens on queue "${queue}"; start one with \`skillrl worker --redis <url>${workers.queue ? ` --queue ${workers.queue}` : ''}\``,
    };
  }
  return {
    ok: true,
    message: `workers: ${check.workers} listening on queue "${queue}" at ${check.url} (Redis ${check.redisVersion ?? '?'})`,
  };
}
