// What the recording proxy costs a program: the same calls made directly to an endpoint and through the
// proxy, plain and streaming, by 128 concurrent clients (and by one, for the latency of an idle proxy).
//
//   pnpm --filter @skillrl/agent-proxy bench           (after a build; `pnpm bench` at the root builds first)
//   node bench/proxy-latency.mjs [callsPerClient=40] [rounds=3]
//
// The upstream is the testkit's fake server (latencyMs 0, record: false, seed 42) in its own process, the
// proxy runs in another (as it does beside a program), and the clients are keep-alive node:http clients in
// this one, so each side's CPU is its own. Each measurement is repeated `rounds` times, direct and proxied
// interleaved, and the median round is reported.
import { fork } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CLIENTS = 128;
const CALLS = Number(process.argv[2] ?? 40);
const ROUNDS = Number(process.argv[3] ?? 3);
const IDLE_CALLS = 400;
const TARGET_ADDED_MS = 1;
const TARGET_LOSS = 0.05;

function start(script, args = []) {
  const execArgv =
    process.env.PROXY_BENCH_PROFILE && script === 'proxy-process.mjs'
      ? ['--cpu-prof', '--cpu-prof-dir=/tmp/proxy-prof']
      : [];
  const child = fork(join(here, script), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const first = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const ask = (what) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(what);
    });
  return { child, first, ask };
}

const body = (stream) =>
  Buffer.from(
    JSON.stringify({
      model: 'program-model',
      messages: [
        { role: 'system', content: 'You are a household agent. Answer with one action.' },
        {
          role: 'user',
          content:
            'You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a fridge 1 and a table 1. Your task is to: put a cool glass of milk on the table.',
        },
      ],
      temperature: 0.7,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    }),
  );

function call(agent, url, token, payload, stream) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': payload.length,
          accept: stream ? 'text/event-stream' : 'application/json',
        },
      },
      (res) => {
        let last = '';
        res.on('data', (chunk) => {
          last = chunk;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else if (stream && !String(last).includes('[DONE]'))
            reject(new Error('stream ended without [DONE]'));
          else resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function measure({ url, tokens }, clients, calls, stream, cpuOf) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const target = `${url}/chat/completions`;
  const payload = body(stream);
  // Warm the sockets and the JIT of every side.
  await Promise.all(
    Array.from({ length: clients }, (_, i) => call(agent, target, tokens[i], payload, stream)),
  );
  const latencies = [];
  const cpuBefore = await cpuOf();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      for (let k = 0; k < calls; k++) {
        const t = performance.now();
        await call(agent, target, tokens[i], payload, stream);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  const cpuAfter = await cpuOf();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const cpuUs =
    cpuAfter === undefined ? undefined : cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system;
  return {
    median: at(0.5),
    p95: at(0.95),
    perSecond: (latencies.length / wall) * 1000,
    cpuPerCallUs: cpuUs === undefined ? undefined : cpuUs / latencies.length,
  };
}

const medianOf = (runs, key) => {
  const sorted = runs.map((r) => r[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const summary = (runs) => ({
  median: medianOf(runs, 'median'),
  p95: medianOf(runs, 'p95'),
  rate: medianOf(runs, 'perSecond'),
  cpu: runs[0]?.cpuPerCallUs === undefined ? undefined : medianOf(runs, 'cpuPerCallUs'),
});

/** The fake upstream answering after `latencyMs`, the recording proxy and the bare hop in front of it. */
async function upstreamSet(latencyMs) {
  const fake = start('fake-upstream.mjs', [String(latencyMs)]);
  const { baseURL } = await fake.first;
  const proxy = start('proxy-process.mjs', [baseURL, String(CLIENTS)]);
  const bare = start('bare-proxy.mjs', [baseURL]);
  const proxied = await proxy.first;
  const { url: bareURL } = await bare.first;
  const tokens = Array.from({ length: CLIENTS }, () => 'EMPTY');
  const cpuOf = (side) => async () => (await side.ask('cpu')).cpu;
  return {
    targets: {
      direct: { url: baseURL, tokens, cpu: async () => undefined },
      bare: { url: bareURL, tokens, cpu: cpuOf(bare) },
      proxied: { ...proxied, cpu: cpuOf(proxy) },
    },
    async close() {
      const final = await proxy.ask('cpu');
      for (const side of [proxy, bare, fake]) side.child.send('close');
      return final;
    },
  };
}

const SCENARIOS = [
  { latencyMs: 0, clients: CLIENTS, calls: CALLS },
  { latencyMs: 0, clients: 1, calls: IDLE_CALLS },
  // What a model's latency does to the same cost: the upstream, not the proxy, is then the bottleneck.
  { latencyMs: 50, clients: CLIENTS, calls: Math.max(5, Math.round(CALLS / 4)) },
];

const rows = [];
let recorded = 0;
let failures = 0;
for (const latencyMs of [...new Set(SCENARIOS.map((s) => s.latencyMs))]) {
  const set = await upstreamSet(latencyMs);
  for (const { clients, calls } of SCENARIOS.filter((s) => s.latencyMs === latencyMs)) {
    for (const stream of [false, true]) {
      const runs = { direct: [], bare: [], proxied: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, target] of Object.entries(set.targets)) {
          runs[name].push(await measure(target, clients, calls, stream, target.cpu));
        }
      }
      rows.push({
        mode: stream ? 'stream' : 'plain',
        latencyMs,
        clients,
        d: summary(runs.direct),
        b: summary(runs.bare),
        p: summary(runs.proxied),
      });
    }
  }
  const final = await set.close();
  recorded += final.recorded;
  failures += final.stats.failures;
}

const ms = (v) => v.toFixed(2);
const pct = (v) => `${(v * 100).toFixed(1)} %`;
const lines = [
  `proxy-latency: ${CLIENTS} clients × ${CALLS} sequential calls each (1 client × ${IDLE_CALLS}; ${CLIENTS} × ${SCENARIOS[2].calls} at 50 ms), median of ${ROUNDS} rounds; fake upstream seed 42, record: false`,
  `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}`,
  '',
  '| mode | upstream latency | clients | median direct → proxied (ms) | added median | p95 direct → proxied (ms) | calls/s direct → proxied | loss | bare hop: added median, loss | proxy CPU / call (bare hop) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const { mode, latencyMs, clients, d, b, p } of rows) {
  lines.push(
    `| ${mode} | ${latencyMs} ms | ${clients} | ${ms(d.median)} → ${ms(p.median)} | ${ms(p.median - d.median)} ms | ${ms(d.p95)} → ${ms(p.p95)} | ${Math.round(d.rate)} → ${Math.round(p.rate)} | ${pct(1 - p.rate / d.rate)} | ${ms(b.median - d.median)} ms, ${pct(1 - b.rate / d.rate)} | ${Math.round(p.cpu)} µs (${Math.round(b.cpu)} µs) |`,
  );
}
lines.push('');
for (const { mode, latencyMs, clients, d, p } of rows) {
  const added = p.median - d.median;
  const loss = 1 - p.rate / d.rate;
  const a =
    added <= TARGET_ADDED_MS
      ? `met (${ms(TARGET_ADDED_MS - added)} ms to spare)`
      : `missed by ${ms(added - TARGET_ADDED_MS)} ms`;
  const l =
    loss <= TARGET_LOSS
      ? `met (${((TARGET_LOSS - loss) * 100).toFixed(1)} points to spare)`
      : `missed by ${((loss - TARGET_LOSS) * 100).toFixed(1)} points`;
  lines.push(
    `${mode}, ${clients} client${clients === 1 ? '' : 's'}, upstream ${latencyMs} ms: added median ≤ ${TARGET_ADDED_MS} ms ${a}; throughput loss ≤ ${TARGET_LOSS * 100} % ${l}`,
  );
}
lines.push(`the proxy recorded ${recorded} calls, ${failures} failures`);
console.log(lines.join('\n'));
