import type { Trajectory } from '@skillrl/core';
import { startRedisServer as startRedis, type TestRedis } from '@skillrl/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEpisodeQueue, EpisodeResultError } from '../src/index.js';
import { householdPlan } from './household-plan.js';
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

describe("the session's state per job, and what it accepts as a job's result", () => {
  it('listens only for the jobs in flight: its table empties as results arrive, and between batches', async () => {
    const queue = 'bounded';
    const [a, b] = [spawnWorker(queue, { concurrency: 2 }), spawnWorker(queue, { concurrency: 2 })];
    await Promise.all([a.ready, b.ready]);
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 100 });
    const context = await source.putBlob(JSON.stringify({ agent: {} }));
    // Three batches of 48 episodes: what the table holds never exceeds what is still awaited, and is
    // empty after each batch (it kept one entry per job ever run before).
    let most = 0;
    for (const seed of [21, 22, 23]) {
      const plan = await householdPlan(12, 4, seed);
      let awaited = plan.length;
      const runs = await source
        .collectRollouts({
          plan,
          run: `bounded-${seed}`,
          context,
          onTrajectory: () => {
            awaited--;
            most = Math.max(most, source.tracked());
            expect(source.tracked()).toBeLessThanOrEqual(awaited);
          },
        })
        .collect();
      expect(runs).toHaveLength(plan.length);
      expect(source.tracked()).toBe(0);
    }
    // The check saw a table in use, not an empty one throughout.
    expect(most).toBeGreaterThan(0);
    await source.close();
    await Promise.all([a.kill(), b.kill()]);
  });

  it('a result that is not the trajectory stops the batch naming job, rollout and schema error; nothing is stored', async () => {
    const queue = 'bad-results';
    const w = spawnWorker(queue, { script: 'bad-result-worker.mjs' });
    await w.ready;
    const source = createEpisodeQueue({
      redis: redis.url,
      queue,
      pollMs: 100,
      resumeCommand: 'skillrl resume /runs/bad',
    });
    const context = await source.putBlob('{}');
    const plan = (await householdPlan(1, 2, 24)).slice(0, 1);
    const stored: Trajectory[] = [];
    const error = await source
      .collectRollouts({ plan, run: 'bad', context, onTrajectory: (t) => void stored.push(t) })
      .collect()
      .catch((e: unknown) => e);
    expect(EpisodeResultError.isInstance(error)).toBe(true);
    const e = error as EpisodeResultError;
    expect(e.code).toBe('SKILLRL_EPISODE_RESULT_INVALID');
    expect(e.episodeId).toBe(plan[0]?.id);
    expect(e.message).toContain(`rollout job ${e.jobId} for episode "${plan[0]?.id}"`);
    expect(e.message).toContain("core's trajectory schema: $.taskId: is required but missing");
    expect(e.message).toContain('$.steps: expected array');
    expect(e.message).toMatch(/then `skillrl resume \/runs\/bad`$/);
    expect(stored).toEqual([]);
    // Removed from Redis, so that a resume enqueues the episode again rather than reading this back.
    const client = new Redis(redis.url);
    expect(await client.exists(`skillrl:${queue}:${e.jobId}`)).toBe(0);
    client.disconnect();
    await source.close();
    await w.kill();
  });
});
