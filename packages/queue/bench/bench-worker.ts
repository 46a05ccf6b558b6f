// One rollout worker process for the bench: `node bench-worker.js <redis-url> <queue>`.
import household from '@skillrl/task-household';
import { startRolloutWorker } from '../src/index.js';
// @ts-expect-error -- the plain-JS agent the tests use
import { createSeededAgent } from '../test/fixtures/seeded-agent.mjs';

const [redis, queue] = process.argv.slice(2) as [string, string];
const worker = startRolloutWorker({
  redis,
  queue,
  // The worker's default (2) unless BENCH_WORKER_CONCURRENCY says otherwise (1 shows the round trips it hides).
  concurrency: Number(process.env.BENCH_WORKER_CONCURRENCY ?? 2),
  load: async ({ context }) => ({
    adapter: household,
    agent: createSeededAgent(JSON.parse(context.toString('utf8')).agent),
  }),
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  await worker.close();
  process.exit(0);
});
