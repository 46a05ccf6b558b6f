// What a run costs as it gets longer: peak memory and bytes on disk per episode of the household SKILLC
// example (examples/household-skillc/skillc.yaml: the skill-reading tfjs policy trained by the tfjs trainer,
// 8 tasks × 8 rollouts a step, a paired validation every 10 steps on 48 tasks, the held-out test on 120), at
// several lengths.
//
//   pnpm --filter @skillrl/cli... build
//   pnpm --filter @skillrl/cli bench:cost                 # 50 and 400 steps, 3 runs each (~6 min)
//   node bench/run-cost.mjs --steps 50,400,800 [--repeat 1] [--out <dir>] [--keep]   # other lengths
//   node bench/run-cost.mjs --steps 50,800 --resume                 # also: the longest run SIGKILLed at 3/4
//                                                                   # of its steps, then resumed
//   node bench/run-cost.mjs --llm-only                              # only the LLM runs (a few seconds)
//
// Every run directory is also measured after the run store's `segmentOnClose` (below).
//
// Then two LLM runs against the testkit's fake OpenAI server (household, the openai agent recording its chat
// turns, replies of a few sentences): SKILLC with trainer external, and Skill-R1 with the LLM editor. Their
// run directories are measured as the CLI leaves them (a session gzips each open file of at least
// `store.compressOnCloseBytes`, 1 MiB, into a segment when it closes), and again after the run store's
// `segmentOnClose` with no size floor (every open file closed into a gzip segment).
//
// Each length is an ordinary `skillrl run` (the CLI in a child process, the same code as the binary) of the
// example with `internalize.steps` changed; peak RSS is that process's own (`process.resourceUsage().maxRSS`).
// Targets: peak RSS of every longer run ≤ 1.2 × the shortest's (the table's last column, on the median of
// `--repeat` runs of each length, default 3), and ≤ 10 KB of run directory per episode. Peak RSS follows
// V8's heap limit, which it sets at a multiple of what survives each full collection: anything a run keeps
// that grows with its length (a cache, an index) shows up here several times over. So does a collection
// that happens to mark slowly in the middle of a step (what it sees allocated meanwhile counts as live): a
// single run of the same length has peaked 1.7-2x above its usual on this shared machine, hence the
// median, and every run's peak in the table.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRunStore } from '@skillrl/core';
import { parse, stringify } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const example = resolve(here, '../../../examples/household-skillc/skillc.yaml');

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const steps = String(flag('--steps', '50,400'))
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1);
const out = resolve(flag('--out', mkdtempSync(join(tmpdir(), 'skillrl-run-cost-'))));
const keep = args.includes('--keep');
const repeat = Number(flag('--repeat', '3'));
const llmOnly = args.includes('--llm-only');
const measureResume = args.includes('--resume');
if (!Number.isInteger(repeat) || repeat < 1) {
  console.error(
    'error: --repeat expects an integer >= 1 (runs of each length; the table takes their median)',
  );
  process.exit(2);
}
if (steps.length === 0) {
  console.error('error: --steps expects comma-separated integers >= 1, e.g. --steps 50,400');
  process.exit(2);
}

// The child: the CLI in-process (exactly what the binary runs), then its own peak RSS on the last line.
const child = `
  const { runCli } = await import(${JSON.stringify(resolve(here, '../dist/index.js'))});
  const code = await runCli(process.argv.slice(1), { out: (t) => process.stdout.write(t + '\\n'), err: () => {} });
  process.stdout.write(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }) + '\\n');
  process.exitCode = code;
`;

function runOnce(config, command = 'run', extra = []) {
  return new Promise((resolveRun, reject) => {
    const started = Date.now();
    const proc = spawn(
      process.execPath,
      ['--input-type=module', '-e', child, command, config, '--json', ...extra],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    proc.stdout.on('data', (d) => {
      stdout += String(d);
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const lines = stdout.trim().split('\n');
      const rss = JSON.parse(lines.pop() ?? '{}');
      const result = JSON.parse(lines.pop() ?? '{}');
      if (code !== 0 || !result.ok) reject(new Error(`the ${config} run failed (exit ${code}): ${stdout}`));
      else resolveRun({ result, maxRssKiB: rss.maxRssKiB, wallS: (Date.now() - started) / 1000 });
    });
  });
}

function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    const s = statSync(p);
    total += s.isDirectory() ? bytesUnder(p) : s.size;
  }
  return total;
}

/**
 * The run directory's size once its store is closed with `segmentOnClose` (each stream's open file closed
 * into a gzip segment, the default segment size of a run): what a session passing that option leaves.
 */
function closeIntoSegments(dir) {
  openRunStore(dir, { segmentBytes: 4 * 1024 * 1024, segmentOnClose: true, onWarning: () => {} }).close();
  return bytesUnder(dir);
}

mkdirSync(out, { recursive: true });
const base = parse(readFileSync(example, 'utf8'));
const rows = [];
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
for (const n of llmOnly ? [] : steps) {
  const peaks = [];
  const walls = [];
  let row;
  for (let k = 1; k <= repeat; k++) {
    const name = repeat === 1 ? `household-skillc-${n}` : `household-skillc-${n}-run${k}`;
    const config = join(out, `${name}.yaml`);
    writeFileSync(config, stringify({ ...base, name, internalize: { ...base.internalize, steps: n } }));
    process.stderr.write(`running ${n} steps${repeat === 1 ? '' : ` (${k} of ${repeat})`} … `);
    const { result, maxRssKiB, wallS } = await runOnce(config);
    peaks.push(maxRssKiB / 1024);
    walls.push(wallS);
    process.stderr.write(`${wallS.toFixed(0)} s, peak RSS ${(maxRssKiB / 1024).toFixed(0)} MiB\n`);
    // Every run of a length is the same run (same config, same seed): its directory is measured once.
    if (row === undefined) {
      const episodes = result.metrics.rollouts;
      const bytes = bytesUnder(result.dir);
      const closedBytes = closeIntoSegments(result.dir);
      row = {
        steps: n,
        episodes,
        dirBytes: bytes,
        bytesPerEpisode: bytes / episodes,
        segmentOnCloseBytesPerEpisode: closedBytes / episodes,
      };
    }
    if (!keep) rmSync(result.dir, { recursive: true, force: true });
  }
  rows.push({ ...row, wallS: median(walls), peakRssMiB: median(peaks), peaksMiB: peaks });
}

/** The longest length again, SIGKILLed once its checkpoint at 3/4 of the steps is on disk, then resumed. */
async function killAndResume(n) {
  const name = `household-skillc-${n}-resumed`;
  const config = join(out, `skillc-${n}-resumed.yaml`);
  writeFileSync(config, stringify({ ...base, name, internalize: { ...base.internalize, steps: n } }));
  const runDir = join(out, 'runs', name);
  const from = Math.ceil((3 * n) / 4);
  const at = join(runDir, 'checkpoints', `state-${String(from).padStart(6, '0')}`);
  const proc = spawn(process.execPath, [resolve(here, '../dist/cli.js'), 'run', config, '--json'], {
    stdio: 'ignore',
  });
  const exited = new Promise((r) => proc.on('exit', r));
  while (!existsSync(at)) await new Promise((r) => setTimeout(r, 200));
  proc.kill('SIGKILL');
  await exited;
  process.stderr.write(`resuming ${n} steps from step ${from} … `);
  const resumed = await runOnce(runDir, 'resume');
  process.stderr.write(`${resumed.wallS.toFixed(0)} s\n`);
  if (!keep) rmSync(runDir, { recursive: true, force: true });
  return { steps: n, from, wallS: resumed.wallS, peakRssMiB: resumed.maxRssKiB / 1024 };
}
const resumeRow = measureResume && !llmOnly ? await killAndResume(steps[steps.length - 1]) : undefined;

// The tfjs table first: it stands even if an LLM run below fails.
const pad = (s, n) => String(s).padStart(n);
const RSS_TARGET = 1.2;
const first = rows[0];
const verdict = (ok) => (ok ? 'met' : 'NOT met');
const ratioHeading = first ? `peak RSS ÷ ${first.steps} steps (≤ ${RSS_TARGET}×)` : '';
const peaksHeading = `each run's peak MiB`.padStart(Math.max(19, 5 * repeat - 1));
if (first) {
  console.log(`household SKILLC example (${example}), tfjs skill-reading agent + tfjs trainer`);
  console.log(
    `${pad('steps', 6)} ${pad('episodes', 9)} ${pad('wall s', 8)} ${pad('peak RSS MiB', 13)} ${peaksHeading} ${pad('run dir MB', 11)} ${pad('bytes/episode', 14)} ${pad('with segmentOnClose', 20)}  ${ratioHeading}`,
  );
}
for (const r of rows) {
  r.rssRatio = r.peakRssMiB / first.peakRssMiB;
  const ratioCell = r === first ? '—' : `${r.rssRatio.toFixed(2)}× (${verdict(r.rssRatio <= RSS_TARGET)})`;
  const peaksCell = r.peaksMiB.map((p) => p.toFixed(0)).join(' ');
  console.log(
    `${pad(r.steps, 6)} ${pad(r.episodes, 9)} ${pad(r.wallS.toFixed(0), 8)} ${pad(r.peakRssMiB.toFixed(0), 13)} ${pad(peaksCell, peaksHeading.length)} ${pad((r.dirBytes / 1e6).toFixed(1), 11)} ${pad(r.bytesPerEpisode.toFixed(0), 14)} ${pad(r.segmentOnCloseBytesPerEpisode.toFixed(0), 20)}  ${pad(ratioCell, ratioHeading.length)}`,
  );
}
const worst = rows.slice(1).reduce((w, r) => (w === undefined || r.rssRatio > w.rssRatio ? r : w), undefined);
const ratio = worst ? worst.rssRatio : Number.NaN;
const worstBytes = Math.max(...rows.map((r) => r.bytesPerEpisode));
if (worst) {
  console.log(
    `peak RSS, worst longer run vs ${first.steps} steps: ${ratio.toFixed(2)}× at ${worst.steps} steps (target ≤ ${RSS_TARGET}×: ${verdict(ratio <= RSS_TARGET)})`,
  );
}
if (rows.length > 0) {
  console.log(
    `bytes per episode, worst: ${worstBytes.toFixed(0)} (target ≤ 10240: ${verdict(worstBytes <= 10240)})`,
  );
}
if (resumeRow) {
  console.log(
    `resume of the ${resumeRow.steps}-step run killed after step ${resumeRow.from}: peak RSS ${resumeRow.peakRssMiB.toFixed(0)} MiB (${(resumeRow.peakRssMiB / first.peakRssMiB).toFixed(2)}× the ${first.steps}-step run), ${resumeRow.wallS.toFixed(0)} s`,
  );
}

// ---- LLM runs against the fake OpenAI server ----
const { startFakeOpenAI } = await import('@skillrl/testkit');
const THOUGHTS = [
  'I should look around the room first to see which receptacles are here and where the object might be.',
  'The object is not in my hands yet, so I will check the nearest receptacle and open it if it is closed.',
  'That did not change anything useful; I will try another receptacle instead of repeating the same command.',
  'Now that I hold the object I need to find the target receptacle the task names and put the object there.',
];
const ACTIONS = [
  'look',
  'inventory',
  'go to countertop 1',
  'open drawer 1',
  'go to cabinet 1',
  'examine cabinet 1',
];
const server = await startFakeOpenAI({
  seed: 1,
  respond: (request, ctx) => {
    const system = String(request.messages?.[0]?.content ?? '');
    if (system.startsWith('You are a skill editor')) {
      return `Here is the revised skill.\n\n\`\`\`markdown\n---\nname: household-steps-${ctx.index % 4}\ndescription: Steps for household tasks.\n---\n\n1. Look around and list the receptacles.\n2. Go to the most likely receptacle and open it.\n3. Take the object, go to the target and put it there.\n\`\`\`\n`;
    }
    return `Thought: ${THOUGHTS[ctx.index % THOUGHTS.length]}\nAction: ${ACTIONS[ctx.index % ACTIONS.length]}`;
  },
});
process.env.SKILLRL_BENCH_KEY = 'sk-bench-run-cost-0123456789';
const model = { model: 'fake-model', baseURL: server.baseURL, apiKeyEnv: 'SKILLRL_BENCH_KEY' };
const llmConfigs = {
  'LLM SKILLC (trainer external)': {
    method: 'internalize',
    seed: 3,
    name: 'llm-skillc',
    adapter: 'household',
    tasks: { split: 'train', limit: 16 },
    agent: { name: 'openai', options: model },
    concurrency: 16,
    maxSteps: 20,
    // The fake model never solves a task: every group scores alike by design, which is not an error here.
    health: { voidUnits: 0 },
    internalize: {
      steps: 6,
      tasksPerStep: 4,
      groupSize: 4,
      validateEvery: 3,
      validation: { split: 'valid_seen', limit: 6 },
      trainer: 'external',
    },
  },
  'LLM Skill-R1 (LLM editor)': {
    method: 'evolve',
    seed: 3,
    name: 'llm-skill-r1',
    adapter: 'household',
    tasks: { split: 'train', limit: 6 },
    agent: { name: 'openai', options: model },
    concurrency: 16,
    maxSteps: 20,
    health: { voidUnits: 0 },
    evolve: {
      mode: 'inference',
      generations: 3,
      candidates: 2,
      episodes: 2,
      generator: { name: 'llm-editor', options: { model } },
    },
  },
};
const llmRows = [];
for (const [label, config] of Object.entries(llmConfigs)) {
  const path = join(out, `${config.name}.yaml`);
  writeFileSync(path, stringify(config));
  process.stderr.write(`running ${label} … `);
  const { result, wallS } = await runOnce(path);
  process.stderr.write(`${wallS.toFixed(0)} s\n`);
  const episodes = result.metrics.rollouts;
  const asWritten = bytesUnder(result.dir);
  const closed = closeIntoSegments(result.dir);
  const report = statSync(join(result.dir, 'report.html')).size;
  llmRows.push({ label, episodes, wallS, asWritten, closed, report });
  if (!keep) rmSync(result.dir, { recursive: true, force: true });
}
await server.close();

console.log('LLM runs (fake OpenAI server, chat turns recorded): KB of run directory per episode');
console.log(
  `${'run'.padEnd(32)} ${pad('episodes', 9)} ${pad('as written', 11)} ${pad('segmentOnClose', 15)} ${pad('of it report.html', 18)}`,
);
const kb = (bytes, n) => (bytes / n / 1024).toFixed(1);
for (const r of llmRows) {
  console.log(
    `${r.label.padEnd(32)} ${pad(r.episodes, 9)} ${pad(kb(r.asWritten, r.episodes), 11)} ${pad(kb(r.closed, r.episodes), 15)} ${pad(kb(r.report, r.episodes), 18)}`,
  );
}
const worstLlm = Math.max(...llmRows.map((r) => r.closed / r.episodes));
console.log(
  `LLM bytes per episode with segmentOnClose, worst: ${worstLlm.toFixed(0)} (target ≤ 10240: ${verdict(worstLlm <= 10240)})`,
);
const numbers = {
  example,
  rows,
  ratio,
  worstBytes,
  llm: llmRows,
  ...(resumeRow ? { resume: resumeRow } : {}),
};
writeFileSync(join(out, 'run-cost.json'), `${JSON.stringify(numbers, null, 2)}\n`);
console.log(`numbers: ${join(out, 'run-cost.json')}`);
