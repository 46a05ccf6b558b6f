// What starting a program per episode costs: household episodes played by a program agent (the test
// program: Node, the MCP SDK client, fetch for the model) against the testkit's fake OpenAI server, at two
// model latencies (0 ms: the proxy and the environment alone; 500 ms per call: a fast hosted model). For each
// mode — a process per episode (`command`), one reused process (`reuse: true`), and the module-function form —
// it prints the median start cost (spawn, or the call, to the program's first request) and the median episode,
// and the start's share of the episode. The issue's bar: a reusable mode when starting costs > 20 %.
//
//   pnpm --filter @skillrl/agent-proxy build
//   node bench/program-start.mjs [--episodes 16] [--steps 6]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEpisode } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { startFakeOpenAI } from '@skillrl/testkit';
import { createProgramAgent } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const EPISODES = flag('--episodes', 16);
const STEPS = flag('--steps', 6);
const PROGRAM = join(here, '../test/programs/episode-program.mjs');

function respond(request) {
  const last = String(request.messages?.at(-1)?.content ?? '');
  const list = /Admissible actions:\n([\s\S]*)$/.exec(last)?.[1]?.split('\n').filter(Boolean) ?? [];
  if (list.length === 0) return 'Action: look';
  let h = 0;
  for (const ch of last) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `Action: ${list[h % list.length]}`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};

async function measure(latencyMs, mode) {
  const fake = await startFakeOpenAI({ respond, latencyMs, seed: 1, record: false });
  const upstream = { model: 'fake-model', baseURL: fake.baseURL };
  const agent =
    mode === 'function'
      ? createProgramAgent({
          upstream,
          run: async (_task, ctx) => {
            // The same work as the test program's first call, in process.
            const res = await fetch(`${ctx.baseURL}/chat/completions`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.apiKey}` },
              body: JSON.stringify({ messages: [{ role: 'user', content: `${ctx.observation}` }] }),
            });
            await res.json();
            return undefined;
          },
        })
      : createProgramAgent({
          upstream,
          command: [process.execPath, PROGRAM],
          env: { PROGRAM_MODE: 'loop' },
          ...(mode === 'reuse' ? { reuse: true } : {}),
        });
  const tasks = await household.load({ split: 'train', limit: EPISODES, seed: 11 });
  const walls = [];
  try {
    await agent.ready();
    for (const [i, task] of tasks.entries()) {
      const started = performance.now();
      const t = await runEpisode({
        agent,
        env: await household.createEnvironment(task),
        task,
        verifier: household.verifier(task),
        condition: 0,
        maxSteps: STEPS,
        id: `bench-${mode}-${i}`,
      });
      if (t.error) throw new Error(`episode ${i} errored: ${t.error.message}`);
      walls.push(performance.now() - started);
    }
    const stats = agent.stats();
    // A function starts nothing: its "start" would be its first model call.
    return { start: mode === 'function' ? 0 : median(stats.startMs), episode: median(walls) };
  } finally {
    await agent.close();
    await fake.close();
  }
}

const rows = [];
for (const latency of [0, 500]) {
  for (const mode of ['command', 'reuse', 'function']) {
    try {
      const r = await measure(latency, mode);
      rows.push({ latency, mode, ...r });
    } catch (e) {
      rows.push({ latency, mode, error: e.message.split('\n')[0] });
    }
  }
}
const pad = (s, n) => String(s).padStart(n);
console.log(
  `program start per episode: ${EPISODES} household episodes, ≤ ${STEPS} steps, Node ${process.version}`,
);
console.log(
  `${'model ms'.padEnd(9)}${'mode'.padEnd(12)}${pad('start ms (median)', 18)}${pad('episode ms (median)', 21)}${pad('start share', 13)}  reusable mode needed (> 20 %)`,
);
for (const r of rows) {
  if (r.error) {
    console.log(`${String(r.latency).padEnd(9)}${r.mode.padEnd(12)}  failed: ${r.error}`);
    continue;
  }
  const share = r.start / r.episode;
  console.log(
    `${String(r.latency).padEnd(9)}${r.mode.padEnd(12)}${pad(r.start.toFixed(0), 18)}${pad(r.episode.toFixed(0), 21)}${pad(`${(share * 100).toFixed(1)} %`, 13)}  ${r.mode === 'command' ? (share > 0.2 ? 'yes' : 'no') : '—'}`,
  );
}
