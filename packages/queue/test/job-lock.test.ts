import { startRedisServer as startRedis, type TestRedis } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEpisodeQueue } from '../src/index.js';
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

describe("a job's lock", () => {
  it('a CPU-bound episode that holds the event loop past the old 5 s lock runs exactly once', async () => {
    const queue = 'cpu-bound';
    // Both workers at the library's default lock; each blocks its event loop 8 s at an episode's first
    // decision (no lock renewal can fire meanwhile). With the old 5 s lock and its 2.5 s stalled check, the
    // idle worker took the job as stalled at about 7.5 s and started it again.
    const env = { SKILLRL_TEST_BLOCK_MS: '8000' };
    const [a, b] = [0, 1].map(() => {
      const w = startWorker(redis.url, queue, { lockMs: 0, env });
      workers.push(w);
      return w;
    }) as [WorkerProcess, WorkerProcess];
    await Promise.all([a.ready, b.ready]);
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 200 });
    const context = await source.putBlob(JSON.stringify({ agent: {} }));
    const plan = (await householdPlan(1, 2, 31)).slice(0, 1);
    const started = Date.now();
    const runs = await source.collectRollouts({ plan, run: 'cpu', context }).collect();
    expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
    expect(runs.map((t) => t.id)).toEqual([plan[0]?.id]);
    // Past the moment a second start came before.
    await new Promise((r) => setTimeout(r, 1000));
    const starts = [...a.events, ...b.events].filter((e) => e.kind === 'start');
    const done = [...a.events, ...b.events].filter((e) => e.kind === 'done');
    expect(starts).toHaveLength(1);
    expect(done).toHaveLength(1);
    await source.close();
    await Promise.all([a.kill(), b.kill()]);
  }, 60_000);
});
