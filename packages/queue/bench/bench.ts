// pnpm --filter @skillrl/queue bench — household episodes with a CPU-bound agent (a fixed amount of work
// per decision, as a heavy policy or verifier would cost), in process and on 1, 2 and 4 worker processes
// through a real redis-server, in one run. Prints a markdown table.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectRollouts, planRollouts } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { startRedisServer as startRedis } from '@skillrl/testkit';
import { Redis } from 'ioredis';
import { createEpisodeQueue } from '../src/index.js';
// @ts-expect-error -- the plain-JS agent the tests use
import { createSeededAgent } from '../test/fixtures/seeded-agent.mjs';

const EPISODES = Number(process.env.BENCH_EPISODES ?? 384);
const BUSY_MS = Number(process.env.BENCH_BUSY_MS ?? 0.25);
const agentOptions = { busyMs: BUSY_MS };

async function plan(seed: number, n: number) {
  const tasks = await household.load({ split: 'train', limit: n / 8, seed });
  return planRollouts({ tasks, groupSize: 8, seed });
}

function startWorker(url: string, queue: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(dirname(fileURLToPath(import.meta.url)), 'bench-worker.js'), url, queue],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      if (String(d).includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`bench worker exited ${code}`)));
  });
}

async function main() {
  const redis = await startRedis();
  const rows: { setup: string; seconds: number; steps: number }[] = [];
  let ceiling = { seconds: 0, bytes: 0, payload: 0, redisMs: 0, sessionMs: 0 };
  const episodes = await plan(1, EPISODES);
  const steps = (ts: { steps: unknown[] }[]) => ts.reduce((a, t) => a + t.steps.length, 0);

  // In process: the pool, one thread (the agent is CPU-bound, so its concurrency buys nothing).
  const agent = createSeededAgent(agentOptions);
  await collectRollouts({ plan: await plan(2, 16), adapter: household, agent }).collect();
  let t0 = performance.now();
  const local = await collectRollouts({
    plan: episodes,
    adapter: household,
    agent,
    concurrency: 8,
  }).collect();
  rows.push({ setup: 'in process', seconds: (performance.now() - t0) / 1000, steps: steps(local) });

  for (const n of [1, 2, 4]) {
    const queue = `bench-${n}`;
    const workers = await Promise.all(Array.from({ length: n }, () => startWorker(redis.url, queue)));
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 500 });
    const context = await source.putBlob(JSON.stringify({ agent: agentOptions }));
    // Warm-up: every worker builds its parts once.
    await source.collectRollouts({ plan: await plan(3, 8 * n), run: `warm-${n}`, context }).collect();
    t0 = performance.now();
    const remote = await source.collectRollouts({ plan: episodes, run: `bench-${n}`, context }).collect();
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ setup: `${n} worker${n > 1 ? 's' : ''}`, seconds, steps: steps(remote) });
    if (JSON.stringify(remote.map((t) => t.reward)) !== JSON.stringify(local.map((t) => t.reward))) {
      throw new Error(`${n} workers gave other rewards than in process`);
    }
    await source.close();
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.kill('SIGTERM');
          }),
      ),
    );
  }
  // The queue's own ceiling here: the same episodes with an agent that costs nothing, on 4 workers.
  {
    const queue = 'bench-ceiling';
    const probe = new Redis(redis.url);
    const workers = await Promise.all(Array.from({ length: 4 }, () => startWorker(redis.url, queue)));
    const source = createEpisodeQueue({ redis: redis.url, queue, pollMs: 500 });
    const context = await source.putBlob(JSON.stringify({ agent: {} }));
    await source.collectRollouts({ plan: await plan(3, 32), run: 'warm-ceiling', context }).collect();
    const redisCpu = async () => {
      const info = await probe.info('cpu');
      const v = (k: string) => Number(new RegExp(`${k}:([0-9.]+)`).exec(info)?.[1] ?? 0);
      return v('used_cpu_sys') + v('used_cpu_user');
    };
    const r0 = await redisCpu();
    const c0 = process.cpuUsage();
    t0 = performance.now();
    const remote = await source.collectRollouts({ plan: episodes, run: 'ceiling', context }).collect();
    const seconds = (performance.now() - t0) / 1000;
    const session = process.cpuUsage(c0);
    ceiling = {
      seconds,
      bytes: JSON.stringify(remote).length / EPISODES,
      payload: JSON.stringify(episodes).length / EPISODES,
      redisMs: (((await redisCpu()) - r0) * 1000) / EPISODES,
      sessionMs: (session.user + session.system) / 1000 / EPISODES,
    };
    probe.disconnect();
    await source.close();
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.kill('SIGTERM');
          }),
      ),
    );
  }
  await redis.stop();

  const base = rows[0] as (typeof rows)[number];
  const one = rows[1] as (typeof rows)[number];
  console.log(
    `\n${EPISODES} household episodes (${base.steps} decisions, ${BUSY_MS} ms CPU each), ${availableParallelism()} cores, load ${loadavg()[0]?.toFixed(1)} at start of table\n`,
  );
  console.log('| setup | wall s | episodes/s | × 1 worker | overhead ms/episode vs in process |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    const overhead = ((r.seconds - base.seconds) * 1000) / EPISODES;
    console.log(
      `| ${r.setup} | ${r.seconds.toFixed(2)} | ${(EPISODES / r.seconds).toFixed(0)} | ${(one.seconds / r.seconds).toFixed(2)} | ${r === base ? '—' : overhead.toFixed(2)} |`,
    );
  }
  console.log(
    `\nqueue ceiling (4 workers, agent at 0 ms, all on this machine): ${(EPISODES / ceiling.seconds).toFixed(0)} episodes/s; per episode: Redis CPU ${ceiling.redisMs.toFixed(3)} ms, session CPU ${ceiling.sessionMs.toFixed(3)} ms, job payload ${(ceiling.payload / 1024).toFixed(1)} KiB, trajectory ${(ceiling.bytes / 1024).toFixed(1)} KiB of JSON`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
