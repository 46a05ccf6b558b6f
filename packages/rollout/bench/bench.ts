// Rollout throughput against the fake server: `pnpm bench`. The server runs in a child process with a fixed
// latency; the client runs collectRollouts over one-step episodes. Ideal throughput is concurrency ÷ latency.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Environment, Task, TaskAdapter, TrajectoryStep, Verifier } from '@skillrl/core';
import household from '@skillrl/task-household';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  collectRollouts,
  createOpenAIAgent,
  DEFAULT_SYSTEM_PROMPT,
  renderSystemPrompt,
} from '../src/index.js';

const LATENCY_MS = 100;
// A rollout run lasts minutes: 40 rounds (4 s at 100 ms) measure the steady state. The first second of a run
// also pays for opening a connection per request in flight and starts every request in step; the table
// shows that window separately for 128 in flight.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const START_ROUNDS = 10;
const CONCURRENCY = [16, 128, 512];

async function startServer(latencyMs = LATENCY_MS): Promise<{ baseURL: string; stop: () => void }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [join(here, 'fake-server.js'), String(latencyMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`fake server exited with ${code}`)));
  });
  return { baseURL: `http://127.0.0.1:${port}/v1`, stop: () => child.kill('SIGTERM') };
}

const verifier: Verifier = { name: 'any', verify: () => ({ score: 1, passed: true }) };
const adapter: Pick<TaskAdapter, 'createEnvironment' | 'verifier'> = {
  verifier: () => verifier,
  createEnvironment: (): Environment => ({
    maxSteps: 1,
    reset: () => 'Look around.',
    step: () => ({ observation: 'Done.', reward: 1, done: true }),
  }),
};
const tasks = (n: number, tag: string): Task[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`,
    family: 'bench',
    split: 'test',
    prompt: `Task ${i}.`,
  }));

interface Scenario {
  adapter: Pick<TaskAdapter, 'createEnvironment' | 'verifier'>;
  tasks: (n: number, tag: string) => Task[];
  /** Requests per episode. */
  steps: number;
}

const oneStep: Scenario = { adapter, tasks, steps: 1 };

async function measure(
  baseURL: string,
  concurrency: number,
  episodes: number,
  tag: string,
  undici = false,
  scenario: Scenario = oneStep,
) {
  const agent = createOpenAIAgent({
    model: 'fake',
    baseURL,
    concurrency,
    timeoutMs: 30_000,
    ...(undici ? { clientOptions: { fetch: globalThis.fetch } } : {}),
  });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  for await (const t of collectRollouts({
    tasks: scenario.tasks(episodes, tag),
    adapter: scenario.adapter,
    agent,
    groupSize: 1,
    concurrency,
    maxSteps: scenario.steps,
  })) {
    if (t.error) throw new Error(`episode ${t.id} failed: ${t.error.message}`);
    n += t.steps.length;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  agent.close();
  return { n, seconds, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / n };
}

/** The floor: the same request as a bare keep-alive node:http POST, without the openai client or the episode loop. */
async function measureBare(baseURL: string, concurrency: number, requests: number) {
  const url = new URL(`${baseURL}/chat/completions`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const body = JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: 'Task 0.' }] });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  const post = () =>
    new Promise<unknown>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (p: Buffer) => parts.push(p));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString())));
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) await post();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  return { n: requests, seconds, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / requests };
}

/**
 * The comparison: a plain loop over the `openai` SDK as a user would write it (default client, Node's fetch),
 * `concurrency` workers each playing episodes of the scenario with the requests our agent sends (same
 * system prompt, transcript and admissible actions) and reading the action off the reply's text; no retries
 * of ours, no cache, no chat record, no trajectory.
 */
async function measureSdkLoop(baseURL: string, concurrency: number, episodes: number, scenario: Scenario) {
  const client = new OpenAI({ baseURL, apiKey: 'EMPTY', timeout: 30_000 });
  const list = scenario.tasks(episodes, 'sdk');
  let next = 0;
  let requests = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, list.length) }, async () => {
      while (next < list.length) {
        const task = list[next++] as Task;
        const env = await scenario.adapter.createEnvironment(task);
        const system = renderSystemPrompt(DEFAULT_SYSTEM_PROMPT, { task, condition: 0, mode: 'text' });
        let observation = await env.reset();
        const opening = observation.includes(task.prompt) ? observation : `${task.prompt}\n\n${observation}`;
        const history: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
        const steps: TrajectoryStep[] = [];
        for (let step = 0; step < Math.min(scenario.steps, env.maxSteps); step++) {
          const shown = step === 0 ? opening : observation;
          const admissible = env.admissibleActions?.();
          const last = admissible?.length
            ? `${shown}\n\nAdmissible actions: ${admissible.join(', ')}`
            : shown;
          const response = await client.chat.completions.create({
            model: 'fake',
            messages: [...history, { role: 'user', content: last }],
            seed: step,
          });
          requests++;
          const text = response.choices[0]?.message.content ?? '';
          const action = /<action>([\s\S]*?)<\/action>/.exec(text)?.[1]?.trim() ?? '';
          history.push({ role: 'user', content: shown }, { role: 'assistant', content: text });
          const result = await env.step(action);
          steps.push({ index: step, observation, action, reward: result.reward, done: result.done });
          observation = result.observation;
          if (result.done) break;
        }
        await env.close?.();
        const trajectory = {
          id: task.id,
          taskId: task.id,
          family: task.family,
          condition: 0 as const,
          steps,
        };
        await scenario.adapter.verifier(task).verify(task, {
          ...trajectory,
          reward: 0,
          verdict: { score: 0, passed: false },
          seed: 0,
          durationMs: 0,
        });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { n: requests, seconds, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / requests };
}

/** Real household games (`@skillrl/task-household`), 20 steps each: the transcript grows every step. */
const householdTasks = household.load({ split: 'train', limit: 256, seed: 0 }) as Task[];
const householdScenario: Scenario = {
  adapter: household,
  tasks: (n, tag) =>
    Array.from({ length: n }, (_, i) => {
      const task = householdTasks[i % householdTasks.length] as Task;
      return { ...task, id: `${tag}-${i}-${task.id}` };
    }),
  steps: 20,
};

/**
 * Ours (collectRollouts over the agent, default transport) against the plain SDK loop, at 128 in flight and
 * zero latency, where CPU per request sets the pace. Both rows use the same fake server, in its own process
 * (so its CPU is charged to neither client), and alternate within each repetition so that a change in the
 * machine's load hits both; the ratio is the median of the per-repetition ratios.
 */
async function compareWithSdkLoop(repetitions: number) {
  const fast = await startServer(0);
  try {
    const concurrency = 128;
    const scenarios: [string, Scenario, number][] = [
      ['one-step episodes', oneStep, concurrency * ROUNDS],
      [
        `household, ${householdScenario.steps} steps`,
        householdScenario,
        Math.ceil((concurrency * ROUNDS) / householdScenario.steps),
      ],
    ];
    const rows = [];
    for (const [name, scenario, episodes] of scenarios) {
      await measure(fast.baseURL, concurrency, Math.ceil(2000 / scenario.steps), 'sdk-jit', false, scenario);
      await measureSdkLoop(fast.baseURL, concurrency, Math.ceil(2000 / scenario.steps), scenario);
      const ours: { rps: number; cpu: number }[] = [];
      const sdk: { rps: number; cpu: number }[] = [];
      for (let rep = 0; rep < repetitions; rep++) {
        const a = async () => {
          const r = await measure(fast.baseURL, concurrency, episodes, `sdk${rep}`, false, scenario);
          ours.push({ rps: r.n / r.seconds, cpu: r.cpuMsPerRequest });
        };
        const b = async () => {
          const r = await measureSdkLoop(fast.baseURL, concurrency, episodes, scenario);
          sdk.push({ rps: r.n / r.seconds, cpu: r.cpuMsPerRequest });
        };
        // Alternate which side goes first, so neither always runs right after the other.
        if (rep % 2 === 0) {
          await a();
          await b();
        } else {
          await b();
          await a();
        }
      }
      const ratios = ours.map((o, i) => o.rps / (sdk[i]?.rps ?? Number.NaN));
      rows.push({
        scenario: name,
        requests: episodes * scenario.steps,
        'ours (req/s)': Math.round(median(ours.map((o) => o.rps))),
        'SDK loop (req/s)': Math.round(median(sdk.map((o) => o.rps))),
        'ours / SDK loop': Number(median(ratios).toFixed(2)),
        'per repetition': ratios.map((r) => r.toFixed(2)).join(' '),
        'ours CPU ms/req': Number(median(ours.map((o) => o.cpu)).toFixed(3)),
        'SDK loop CPU ms/req': Number(median(sdk.map((o) => o.cpu)).toFixed(3)),
      });
    }
    const [load1] = loadavg();
    console.log(
      `ours against a plain openai-SDK loop: 128 in flight, zero latency, fake server in a child process, ` +
        `${repetitions} alternating repetitions (medians), ${cpus().length} CPUs, load average ${load1?.toFixed(1)}`,
    );
    console.table(rows);
  } finally {
    fast.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

if (process.env.BENCH_ONLY === 'ours') {
  // For profiling (`node --cpu-prof`): our side of the household comparison alone.
  const fast = await startServer(0);
  for (let rep = 0; rep < 3; rep++) {
    const r = await measure(fast.baseURL, 128, 256, `ours${rep}`, false, householdScenario);
    console.log(
      `${Math.round(r.n / r.seconds)} req/s, ${r.cpuMsPerRequest.toFixed(3)} client CPU ms/request`,
    );
  }
  fast.stop();
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'sdk') {
  await compareWithSdkLoop(Number(process.env.BENCH_REPS ?? 3));
  process.exit(0);
}

const server = await startServer();
try {
  // JIT warm-up of the whole path (openai client, transport, episode loop) before anything is timed.
  await measure(server.baseURL, 64, 3000, 'jit', false);
  await measure(server.baseURL, 64, 1000, 'jit-fetch', true);

  const rows = [];
  for (const concurrency of CONCURRENCY) {
    await measure(server.baseURL, concurrency, concurrency, `warm${concurrency}`);
    const { n, seconds, cpuMsPerRequest } = await measure(
      server.baseURL,
      concurrency,
      concurrency * ROUNDS,
      `c${concurrency}`,
    );
    const ideal = concurrency / (LATENCY_MS / 1000);
    const throughput = n / seconds;
    rows.push({
      concurrency: String(concurrency),
      episodes: n,
      'throughput (req/s)': Math.round(throughput),
      'ideal (req/s)': ideal,
      'ratio to ideal': Number((throughput / ideal).toFixed(3)),
      'client CPU ms/request': Number(cpuMsPerRequest.toFixed(3)),
      // What one free client core could sustain at this CPU cost, whatever else the machine is running.
      'CPU-bound ceiling (req/s/core)': Math.round(1000 / cpuMsPerRequest),
    });
  }
  {
    const concurrency = 128;
    const { n, seconds, cpuMsPerRequest } = await measure(
      server.baseURL,
      concurrency,
      concurrency * START_ROUNDS,
      'start128',
    );
    const ideal = concurrency / (LATENCY_MS / 1000);
    rows.push({
      concurrency: `${concurrency} (first ${START_ROUNDS} rounds only)`,
      episodes: n,
      'throughput (req/s)': Math.round(n / seconds),
      'ideal (req/s)': ideal,
      'ratio to ideal': Number((n / seconds / ideal).toFixed(3)),
      'client CPU ms/request': Number(cpuMsPerRequest.toFixed(3)),
      'CPU-bound ceiling (req/s/core)': Math.round(1000 / cpuMsPerRequest),
    });
  }
  const [load1] = loadavg();
  console.log(
    `rollout throughput (default node:http transport), fake server latency ${LATENCY_MS} ms, ${ROUNDS} rounds ` +
      `per concurrency, ${cpus().length} CPUs, load average ${load1?.toFixed(1)}`,
  );
  console.table(rows);

  // Transport A/B at 128 in flight: alternating repetitions, so that load changes hit both sides alike.
  const ab: Record<string, { cpu: number[]; ratio: number[] }> = {
    'node:http (default)': { cpu: [], ratio: [] },
    'global fetch': { cpu: [], ratio: [] },
    'bare node:http POST (floor)': { cpu: [], ratio: [] },
  };
  const abRequests = 128 * ROUNDS;
  await measureBare(server.baseURL, 128, 1280);
  for (let rep = 0; rep < 3; rep++) {
    const results = {
      'node:http (default)': await measure(server.baseURL, 128, abRequests, `ab${rep}h`, false),
      'global fetch': await measure(server.baseURL, 128, abRequests, `ab${rep}f`, true),
      'bare node:http POST (floor)': await measureBare(server.baseURL, 128, abRequests),
    };
    for (const [side, result] of Object.entries(results)) {
      ab[side]?.cpu.push(result.cpuMsPerRequest);
      ab[side]?.ratio.push(result.n / result.seconds / 1280);
    }
  }
  console.log(`transport A/B at concurrency 128, ${ROUNDS} rounds, 3 alternating repetitions (medians)`);
  console.table(
    Object.entries(ab).map(([transport, v]) => ({
      transport,
      'ratio to ideal': Number(median(v.ratio).toFixed(3)),
      'client CPU ms/request': Number(median(v.cpu).toFixed(3)),
    })),
  );
} finally {
  server.stop();
}
await compareWithSdkLoop(3);
