import { createServer } from 'node:net';
import { registerSecret } from '@skillrl/core';
import { startRedisServer as startRedis, type TestRedis } from '@skillrl/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createEpisodeQueue, RedisUnavailableError } from '../src/index.js';
import { householdPlan } from './household-plan.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

const servers: TestRedis[] = [];
const workers: WorkerProcess[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await Promise.all(servers.map((s) => s.stop()));
});

/** A port on which nothing listens: bound, then closed. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const lines = (text: string, pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l)).length;

describe('Redis unreachable', () => {
  it('refused from the start: the batch stops after connectTimeoutMs naming the URL, its password hidden', async () => {
    const port = await refusedPort();
    const password = 's3cret-queue-pw';
    registerSecret(password);
    // connectTimeoutMs counts from the first attempt, made as the queue is created.
    const started = Date.now();
    const source = createEpisodeQueue({
      redis: `redis://skillrl:${password}@127.0.0.1:${port}`,
      connectTimeoutMs: 800,
      resumeCommand: 'skillrl resume /runs/refused',
    });
    // The first call to Redis is the components blob.
    const error = await source.putBlob('{}').catch((e: unknown) => e);
    const waited = Date.now() - started;
    expect(RedisUnavailableError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(
      `Redis at redis://skillrl:***@127.0.0.1:${port} (workers.redis) could not be reached`,
    );
    expect(message).toContain('ECONNREFUSED');
    expect(message).toMatch(/then `skillrl resume \/runs\/refused`$/);
    expect(message).not.toContain(password);
    expect(waited).toBeGreaterThanOrEqual(800);
    expect(waited).toBeLessThan(3000);
    const closing = Date.now();
    await source.close();
    expect(Date.now() - closing).toBeLessThan(500);
  });

  it('an abort while waiting on a Redis that is down ends the wait at once, with the abort reason', async () => {
    const port = await refusedPort();
    const controller = new AbortController();
    const source = createEpisodeQueue({
      redis: `redis://127.0.0.1:${port}`,
      connectTimeoutMs: 60_000,
      signal: controller.signal,
    });
    const pending = source.putBlob('{}').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    const aborted = Date.now();
    controller.abort(new Error('interrupted (SIGTERM)'));
    expect(((await pending) as Error).message).toBe('interrupted (SIGTERM)');
    expect(Date.now() - aborted).toBeLessThan(200);
    await source.close();
  });

  it('killed mid-batch: the batch stops after connectTimeoutMs; the worker, sent SIGTERM, stops within 2 s without a flood of ECONNREFUSED', async () => {
    const redis = await startRedis();
    servers.push(redis);
    const queue = 'outage';
    const worker = startWorker(redis.url, queue, { concurrency: 2, lockMs: 0 });
    workers.push(worker);
    await worker.ready;
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 100, connectTimeoutMs: 1500 });
    const context = await source.putBlob(JSON.stringify({ agent: { delayMs: 5 } }));
    const plan = await householdPlan(8, 4, 41);
    let stored = 0;
    const run = source
      .collectRollouts({ plan, run: 'outage', context, onTrajectory: () => void stored++ })
      .collect()
      .catch((e: unknown) => e);
    await worker.done(3);
    await redis.stop();
    const killed = Date.now();
    const error = await run;
    const stoppedAfter = Date.now() - killed;
    expect(RedisUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`Redis at ${redis.url}`);
    expect(stoppedAfter).toBeGreaterThanOrEqual(1400);
    expect(stoppedAfter).toBeLessThan(4000);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(plan.length);
    const closing = Date.now();
    await source.close();
    expect(Date.now() - closing).toBeLessThan(500);

    // The worker has been reconnecting for a few seconds now: it said so once, not four times a second.
    await new Promise((r) => setTimeout(r, 1500));
    const stderr = worker.stderr();
    expect(stderr).toContain(`Redis at ${redis.url} is unreachable`);
    expect(lines(stderr, /ECONNREFUSED/)).toBeLessThanOrEqual(3);
    const signalled = Date.now();
    const code = await worker.kill('SIGTERM');
    const exitedAfter = Date.now() - signalled;
    expect(code).toBe(0);
    expect(exitedAfter).toBeLessThan(2000);
    expect(worker.events.at(-1)).toMatchObject({ kind: 'stopped', reachable: false });
  }, 60_000);
});
