// Pipelined forward_backward against the testkit's fake Tinker, whose forward_backward futures take 50 ms of
// work each (side by side, as a service's batches do). Target (issue 24): an update of 512 data takes at
// most 1.3× one request's time per chunk wave. Run: pnpm --filter @skillrl/trainer-tinker bench
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createTinkerClient, modelInput, openTinkerSession, tensor } from '../dist/index.js';

// BENCH_WORK_MS=0 measures what the client and the fake cost on their own (no work time to overlap).
const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 50);
const MODEL = 'bench/tiny';
const REPEATS = 5;
const TARGET = 1.3;

const datum = (i, length) => ({
  model_input: modelInput(Array.from({ length }, (_, t) => 1 + ((i + t) % 6))),
  loss_fn_inputs: {
    target_tokens: tensor(
      Array.from({ length }, (_, t) => 1 + ((i + t + 1) % 6)),
      'int64',
    ),
    logprobs: tensor(Array(length).fill(-1.5), 'float32'),
    advantages: tensor(Array(length).fill(i % 2 ? 1 : -1), 'float32'),
  },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const fake = spawn(
  process.execPath,
  [fileURLToPath(new URL('./fake-server.mjs', import.meta.url)), String(WORK_MS), MODEL],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const [url] = (await once(fake.stdout, 'data')).map((b) => String(b).trim());
const server = {
  url,
  close: async () => {
    fake.stdin.end();
    await once(fake, 'exit');
  },
};
const client = createTinkerClient({ baseURL: server.url, futures: { pollIntervalMs: 1 } });
const session = await openTinkerSession(client, { heartbeatMs: 60_000 });
const { model_id } = await client.createModel({
  session_id: session.id,
  model_seq_id: session.nextModelSeqId(),
  base_model: MODEL,
  lora_config: { rank: 4, seed: 1 },
});

async function time(fn) {
  const runs = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    await fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const pipelined = (data, limits) => () =>
  client.forwardBackwardChunks({ model_id, data, loss_fn: 'importance_sampling' }, limits);
async function oneByOne(data, maxData) {
  for (let s = 0; s < data.length; s += maxData) {
    await client.forwardBackward({
      model_id,
      forward_backward_input: { data: data.slice(s, s + maxData), loss_fn: 'importance_sampling' },
    });
  }
}

const rows = [];
const cases = [
  { name: '512 data × 8 tokens, 64 a request', n: 512, length: 8, limits: { maxData: 64 } },
  { name: '512 data × 8 tokens, 32 a request', n: 512, length: 8, limits: { maxData: 32 } },
  {
    name: '512 data × 32 tokens, 32 KB a request',
    n: 512,
    length: 32,
    limits: { maxData: 1024, maxBytes: 32_000 },
  },
];
for (const c of cases) {
  const data = Array.from({ length: c.n }, (_, i) => datum(i, c.length));
  const first = (await pipelined(data, c.limits)()).chunks;
  const perRequest = first[0].data.length;
  const one = await time(pipelined(data.slice(0, perRequest), c.limits));
  const all = await time(pipelined(data, c.limits));
  const serial = await time(() => oneByOne(data, perRequest));
  const waves = 1; // every chunk is submitted before any result is awaited
  rows.push({
    case: c.name,
    chunks: first.length,
    'one request (ms)': one.toFixed(0),
    'pipelined (ms)': all.toFixed(0),
    'one by one (ms)': serial.toFixed(0),
    'pipelined ÷ (waves × one request)': (all / (waves * one)).toFixed(2),
    target: `≤ ${TARGET}`,
    ok: all / (waves * one) <= TARGET ? 'yes' : 'NO',
  });
}
session.close();
await server.close();

const header = Object.keys(rows[0]);
console.log(
  `forward_backward against the fake Tinker (${WORK_MS} ms of work a request, median of ${REPEATS})\n`,
);
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(`| ${header.map((h) => r[h]).join(' | ')} |`);
if (rows.some((r) => r.ok !== 'yes')) process.exitCode = 1;
