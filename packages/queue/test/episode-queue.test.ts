import { registerSecret, type Trajectory } from '@skillrl/core';
import { collectRollouts, type PlannedEpisode } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { startRedisServer as startRedis, type TestRedis } from '@skillrl/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEpisodeQueue, EpisodeJobError, NoWorkerError, type QueueNotice } from '../src/index.js';
// @ts-expect-error -- a plain-JS fixture, shared with the worker process
import { createSeededAgent } from './fixtures/seeded-agent.mjs';
import { essence, householdPlan } from './household-plan.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

let redis: TestRedis;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await redis?.stop();
});

const spawnWorker = (queue: string, options: Parameters<typeof startWorker>[2] = {}) => {
  const w = startWorker(redis.url, queue, options);
  workers.push(w);
  return w;
};

async function inProcess(plan: PlannedEpisode[], agentOptions: object) {
  const runs = await collectRollouts({
    plan,
    adapter: household,
    agent: createSeededAgent(agentOptions),
  }).collect();
  return runs.map(essence);
}

describe('episodes on BullMQ workers', () => {
  it('two worker processes give the rollouts the in-process pool gives, each collected once', async () => {
    const queue = 'same-as-in-process';
    const plan = await householdPlan(8, 4, 11);
    const agent = {};
    const expected = await inProcess(plan, agent);
    const [a, b] = [spawnWorker(queue), spawnWorker(queue, { concurrency: 2 })];
    await Promise.all([a.ready, b.ready]);
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 200 });
    const context = await source.putBlob(JSON.stringify({ agent }));
    const seen: string[] = [];
    const runs = await source
      .collectRollouts({ plan, run: 'r1', context, onTrajectory: (t) => void seen.push(t.id) })
      .collect();
    await source.close();
    expect(runs.map(essence)).toEqual(expected);
    expect(seen.sort()).toEqual(plan.map((e) => e.id).sort());
    // Collected jobs are removed: Redis holds only what is in flight or not yet collected.
    const client = new Redis(redis.url);
    expect(await client.keys(`skillrl:${queue}:ep-*`)).toEqual([]);
    client.disconnect();
    // Both processes took part.
    expect(a.events.filter((e) => e.kind === 'done').length).toBeGreaterThan(0);
    expect(b.events.filter((e) => e.kind === 'done').length).toBeGreaterThan(0);
    await Promise.all([a.kill(), b.kill()]);
  });

  it('a worker killed with SIGKILL mid-episode: its job runs again elsewhere, nothing lost or stored twice', async () => {
    const queue = 'kill-mid-episode';
    const plan = await householdPlan(6, 4, 12);
    const agent = { delayMs: 4 };
    const expected = await inProcess(plan, agent);
    const first = spawnWorker(queue, { concurrency: 2, lockMs: 1000 });
    await first.ready;
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 200 });
    const context = await source.putBlob(JSON.stringify({ agent }));
    const stored = new Map<string, number>();
    const run = source
      .collectRollouts({
        plan,
        run: 'r2',
        context,
        onTrajectory: (t) => void stored.set(t.id, (stored.get(t.id) ?? 0) + 1),
      })
      .collect();
    await first.done(3);
    // Mid-episode: with two jobs in flight and 15 ms per decision, the worker is inside an episode now.
    await first.kill('SIGKILL');
    const second = spawnWorker(queue, { concurrency: 2, lockMs: 1000 });
    const runs = await run;
    await source.close();
    expect(runs.map(essence)).toEqual(expected);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(stored.size).toBe(plan.length);
    const byFirst = new Set(first.events.filter((e) => e.kind === 'done').map((e) => e.episodeId));
    const bySecond = second.events.filter((e) => e.kind === 'done').map((e) => e.episodeId);
    expect(byFirst.size + bySecond.length).toBeGreaterThanOrEqual(plan.length);
    await second.kill();
  });

  it('a job that runs twice (its lock lost to a blocked worker) is stored once', async () => {
    const queue = 'run-twice';
    const plan = (await householdPlan(2, 2, 13)).slice(0, 3);
    const agent = {};
    const expected = await inProcess(plan, agent);
    // Worker a blocks its event loop 800 ms at each episode's start: its 200 ms lock cannot be renewed,
    // worker b's stalled check puts the job back, b runs it, and a's run finishes too.
    const a = spawnWorker(queue, { lockMs: 200, env: { SKILLRL_TEST_BLOCK_MS: '800' } });
    await a.ready;
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 100 });
    const context = await source.putBlob(JSON.stringify({ agent }));
    const stored: string[] = [];
    const run = source
      .collectRollouts({ plan, run: 'r3', context, onTrajectory: (t) => void stored.push(t.id) })
      .collect();
    await new Promise((r) => setTimeout(r, 300));
    const b = spawnWorker(queue, { lockMs: 200 });
    const runs = await run;
    await a.done(1);
    await source.close();
    expect(runs.map(essence)).toEqual(expected);
    expect(stored.sort()).toEqual(plan.map((e) => e.id).sort());
    const finished = [...a.events, ...b.events].filter((e) => e.kind === 'done').map((e) => e.episodeId);
    // Some episode really did run to the end more than once.
    expect(finished.length).toBeGreaterThan(new Set(finished).size);
    await Promise.all([a.kill(), b.kill()]);
  });

  it('no payload and no Redis key holds an API key; workers read it from their own environment', async () => {
    const queue = 'secrets';
    const secret = 'sk-test-0123456789abcdefSECRET';
    process.env.SKILLRL_QUEUE_TEST_KEY = secret;
    registerSecret(secret);
    const agent = { apiKeyEnv: 'SKILLRL_QUEUE_TEST_KEY' };
    const plan = await householdPlan(2, 2, 14);
    const w = spawnWorker(queue, { env: { SKILLRL_QUEUE_TEST_KEY: secret } });
    await w.ready;
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 200 });
    const context = await source.putBlob(JSON.stringify({ agent }));
    const runs = await source.collectRollouts({ plan, run: 'r4', context }).collect();
    expect(runs.every((t) => !t.error)).toBe(true);
    // Every key and every value Redis holds, whatever its type.
    const text = await redis.contents();
    await source.close();
    // The check can fail: the payloads are in there (the variable's name is), the key is not.
    expect(text).toContain('SKILLRL_QUEUE_TEST_KEY');
    expect(text).toContain(plan[0]?.id);
    expect(text).not.toContain(secret);
    await w.kill();
  });

  it('with no worker, the run says so and stops with NoWorkerError after its budget', async () => {
    const notices: QueueNotice[] = [];
    const source = createEpisodeQueue({
      redis: redis.url,
      queue: 'nobody-listens',
      pollMs: 100,
      noWorkerNoticeMs: 300,
      noWorkerTimeoutMs: 1200,
      resumeCommand: 'skillrl resume /runs/r5',
      onNotice: (n) => notices.push(n),
    });
    const context = await source.putBlob('{}');
    const plan = await householdPlan(1, 2, 15);
    const started = Date.now();
    const error = await source
      .collectRollouts({ plan, run: 'r5', context })
      .collect()
      .catch((e: unknown) => e);
    await source.close();
    expect(error).toBeInstanceOf(NoWorkerError);
    expect((error as NoWorkerError).code).toBe('SKILLRL_NO_WORKER');
    expect((error as Error).message).toMatch(/no rollout worker listened on queue "nobody-listens"/);
    // The command that continues this run, with its queue: nothing to fill in.
    expect((error as Error).message).toMatch(
      /start one with `skillrl worker --redis <url> --queue nobody-listens`.*then `skillrl resume \/runs\/r5`$/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1200);
    expect(notices.map((n) => n.kind)).toEqual(['no-worker']);
    expect(notices[0]?.message).toMatch(/skillrl worker --redis/);
  });

  it('a session stopped and started again reattaches: finished jobs are read back, not run again', async () => {
    const queue = 'reattach';
    const plan = await householdPlan(4, 4, 16);
    const agent = {};
    const expected = await inProcess(plan, agent);
    const w = spawnWorker(queue, { concurrency: 2 });
    await w.ready;
    const first = createEpisodeQueue({ redis: redis.url, queue, pollMs: 100 });
    const context = await first.putBlob(JSON.stringify({ agent }));
    const controller = new AbortController();
    const kept = new Map<string, Trajectory>();
    const stopped = await first
      .collectRollouts({
        plan,
        run: 'r6',
        context,
        signal: controller.signal,
        onTrajectory: (t) => {
          kept.set(t.id, t);
          if (kept.size === 5) controller.abort(new Error('session killed'));
        },
      })
      .collect()
      .catch((e: unknown) => e);
    await first.close();
    expect((stopped as Error).message).toBe('session killed');
    // Let the worker finish what was enqueued, as it would while the session is down.
    await w.done(plan.length);
    const ranBefore = w.events.filter((e) => e.kind === 'done').length;
    const second = createEpisodeQueue({ redis: redis.url, queue, pollMs: 100 });
    const again = await second.putBlob(JSON.stringify({ agent }));
    expect(again).toBe(context);
    const runs = await second
      .collectRollouts({ plan, run: 'r6', context, stored: (e) => kept.get(e.id) })
      .collect();
    await second.close();
    expect(runs.map(essence)).toEqual(expected);
    expect(w.events.filter((e) => e.kind === 'done').length).toBe(ranBefore);
    await w.kill();
  });

  it('Redis restarted without persistence: the session notices and enqueues the lost jobs again', async () => {
    const queue = 'redis-restart';
    const plan = await householdPlan(6, 4, 17);
    const agent = { delayMs: 4 };
    const expected = await inProcess(plan, agent);
    const w = spawnWorker(queue, { concurrency: 2, lockMs: 1000 });
    await w.ready;
    const notices: QueueNotice[] = [];
    const source = createEpisodeQueue({
      redis: redis.url,
      queue,
      pollMs: 200,
      onNotice: (n) => notices.push(n),
    });
    const context = await source.putBlob(JSON.stringify({ agent }));
    const stored = new Map<string, number>();
    const run = source
      .collectRollouts({
        plan,
        run: 'r7',
        context,
        onTrajectory: (t) => void stored.set(t.id, (stored.get(t.id) ?? 0) + 1),
      })
      .collect();
    await w.done(4);
    await redis.restart();
    const runs = await run;
    await source.close();
    expect(runs.map(essence)).toEqual(expected);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(notices.some((n) => n.kind === 're-enqueued' && (n.jobs ?? 0) > 0)).toBe(true);
    await w.kill();
  });

  it('a job that fails on every attempt (its parts do not load on the worker) stops the run with the reason', async () => {
    const queue = 'load-fails';
    const w = spawnWorker(queue, { env: { SKILLRL_TEST_LOAD_FAILS: '1' } });
    await w.ready;
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 100, attempts: 2 });
    const context = await source.putBlob('{}');
    const plan = (await householdPlan(1, 2, 18)).slice(0, 1);
    const error = await source
      .collectRollouts({ plan, run: 'r8', context })
      .collect()
      .catch((e: unknown) => e);
    await source.close();
    expect(error).toBeInstanceOf(EpisodeJobError);
    expect((error as Error).message).toContain(plan[0]?.id);
    expect((error as Error).message).toContain('@acme/missing-adapter is not installed here');
    // The failed job is gone from Redis: a resume, once the worker is fixed, enqueues the episode again
    // instead of finding the same failure under the same id for a day.
    const client = new Redis(redis.url);
    expect(await client.keys(`skillrl:${queue}:ep-*`)).toEqual([]);
    client.disconnect();
    await w.kill();
  });
});
