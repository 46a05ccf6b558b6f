// Proposals in parallel: a one-generation Skill-R1 run of 32 generated QA tasks × 4 candidates × 1 episode,
// the task model and the LLM editor both served by a local fake OpenAI-compatible server that answers every
// request in LATENCY_MS (default 300). Prints the wall time of each run against
//   ideal  = one rollout round (generation 0) + one editor round + one rollout round (generation 1),
//   serial = every request one after another (editor calls + episodes) × latency,
// and the target: at most 3× ideal with the run's concurrency covering a generation's requests.
//
//   pnpm --filter @skillrl/orchestrator bench          (pnpm bench runs it with the other benches)
//   LATENCY_MS=200 TASKS=16 node bench/proposals.mjs   (needs dist: pnpm --filter @skillrl/orchestrator build)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evolve } from '../dist/index.js';

const LATENCY = Number(process.env.LATENCY_MS ?? 300);
const TASKS = Number(process.env.TASKS ?? 32);
const K = 4;
const M = 1;
const HERE = dirname(fileURLToPath(import.meta.url));

// The server runs in its own process, as a real one would: in this one it would share the event loop with
// the run it is timing.
const child = spawn(process.execPath, [join(HERE, 'fake-editor-server.mjs')], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, LATENCY_MS: String(LATENCY) },
});
const baseURL = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
    if (out.includes('\n')) resolve(out.split('\n')[0].trim());
  });
  child.on('exit', (code) => reject(new Error(`the fake server exited (${code})`)));
});
const server = { baseURL, close: async () => child.stdin.end() };

const model = { model: 'fake-model', baseURL: server.baseURL, retry: { maxRetries: 2 } };

function config(name, concurrency, editorOptions = {}) {
  return {
    method: 'evolve',
    seed: 1,
    name,
    adapter: 'qa',
    tasks: { split: 'train', limit: TASKS },
    agent: { name: 'openai', options: { ...model, temperature: 0 } },
    maxSteps: 1,
    concurrency,
    evolve: {
      mode: 'inference',
      generations: 1,
      candidates: K,
      episodes: M,
      // The fake server ignores `n` (as Ollama does): one request per candidate, sent together. A server that
      // honours `n` (vLLM, OpenAI) takes one request per task in the default `n` sampling.
      generator: {
        name: 'llm-editor',
        options: { model, sampling: 'separate', maxRepairs: 0, ...editorOptions },
      },
    },
  };
}

// Run directories on tmpfs where there is one: the store fsyncs every skill file it writes (96 here), which
// on a slow disk costs more than the requests being measured. One row runs on the disk for comparison.
const shm = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const dir = mkdtempSync(join(shm, 'skillrl-bench-proposals-'));
const diskDir = mkdtempSync(join(tmpdir(), 'skillrl-bench-proposals-'));
const episodes = TASKS * M + TASKS * K * M;
const editorCalls = TASKS;
const ideal = (3 * LATENCY) / 1000;
const serial = ((editorCalls + episodes) * LATENCY) / 1000;

async function measure(label, cfg, where = dir) {
  const configPath = join(where, `${cfg.name}.yaml`);
  writeFileSync(configPath, JSON.stringify(cfg));
  const t0 = performance.now();
  const result = await evolve(cfg, { configPath });
  const wall = (performance.now() - t0) / 1000;
  if (result.metrics.rollouts !== episodes)
    throw new Error(`${label}: ${result.metrics.rollouts} rollouts, expected ${episodes}`);
  if (result.metrics.fallbacks !== 0) throw new Error(`${label}: ${result.metrics.fallbacks} fallbacks`);
  return { label, concurrency: cfg.concurrency, wall, calls: result.metrics.editor_calls, where };
}

const rows = [];
try {
  // A first run loads every package: not counted.
  await measure('warm-up', config('warm-up', TASKS * K));
  // Enough concurrency for a generation's requests: 4 × 32 episodes in flight, all 32 tasks proposed at once.
  rows.push(await measure('proposals concurrent', config('concurrent', TASKS * K)));
  rows.push(
    await measure('proposals concurrent, run dir on disk', config('concurrent-disk', TASKS * K), diskDir),
  );
  // The run's default concurrency (8): proposals and episodes in rounds of 8.
  rows.push(await measure('proposals concurrent, concurrency 8', config('default', 8)));
  // One proposal at a time, as before (the editor's own limit set to 1), episodes still concurrent.
  rows.push(
    await measure('one proposal at a time', config('serial-editor', TASKS * K, { maxConcurrency: 1 })),
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(diskDir, { recursive: true, force: true });
}

console.log(
  `\nOne-generation evolve, ${TASKS} qa tasks × ${K} candidates × ${M} episode, fake server ${LATENCY} ms per request`,
);
console.log(
  `(${editorCalls} editor calls × ${K} requests, ${episodes} episodes; run dirs on ${shm}; Node ${process.version})\n`,
);
console.log('| run | concurrency | wall s | ideal s | serial s | wall / ideal | serial / wall |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(
    `| ${r.label} | ${r.concurrency} | ${r.wall.toFixed(2)} | ${ideal.toFixed(2)} | ${serial.toFixed(1)} | ${(r.wall / ideal).toFixed(2)}× | ${(serial / r.wall).toFixed(1)}× |`,
  );
}
const best = rows[0];
const ok = best.wall <= 3 * ideal;
console.log(
  `\ntarget: wall ≤ 3× ideal with concurrency ${best.concurrency}: ${ok ? 'met' : 'NOT met'} (${(best.wall / ideal).toFixed(2)}×)`,
);
