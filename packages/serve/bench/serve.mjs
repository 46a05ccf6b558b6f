// skillrl serve's bench (issue 37, "Speed"): 100 run directories and one run of 100k rollouts, in the run
// store's real format (written with core's openRunStore by synthetic-runs.mjs), then
//   - the runs list: GET /api/runs on a server that has read nothing yet (cold) and again (warm), and, where
//     Debian's Chromium is installed, the page itself until its list is drawn;
//   - one trajectory of the 100k run: the first (which indexes the run's rollouts) and then others;
//   - memory while a run streams: a child process appends SKILLC steps to a new run while this process serves
//     it to a live client (the change stream, the run page, the trajectory list and a trajectory, every second
//     as a watching page would), sampling RSS and heap.
// Prints a markdown table with each target met or missed by how much. Timings only; no test asserts them.
//
//   pnpm --filter @skillrl/serve bench                      # 100 runs, 100k rollouts, 20 s of streaming
//   node --expose-gc bench/serve.mjs --stream-minutes 10    # the 10-minute memory figure
//   options: --runs N --rollouts N --stream-seconds S --charts-only (no trajectory list open) --keep
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeInternalizeRun } from './synthetic-runs.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const RUNS = option('runs', 100);
const ROLLOUTS = option('rollouts', 100_000);
const STREAM_SECONDS = args.includes('--stream-minutes')
  ? option('stream-minutes', 10) * 60
  : option('stream-seconds', 20);
const KEEP = args.includes('--keep');
// Watch the streaming run as its run page does (charts, health, the live stream) without opening its
// trajectory list: what a page holds per rollout is then nothing.
const CHARTS_ONLY = args.includes('--charts-only');
const here = fileURLToPath(new URL('.', import.meta.url));
const { startServe } = await import(join(here, '..', 'dist', 'index.js'));

const gc = globalThis.gc ?? (() => {});
const mib = (bytes) => bytes / (1 << 20);
const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'serve-bench-'));
const root = join(work, 'runs');
mkdirSync(root);
const rows = [];
const row = (measure, target, value, unit, lowerIsBetter = true) => {
  let verdict = '—';
  if (target !== undefined) {
    const met = lowerIsBetter ? value <= target : value >= target;
    verdict = met
      ? `met (${((Math.abs(target - value) / target) * 100).toFixed(0)} % under)`
      : `missed by ${(value - target).toFixed(1)} ${unit} (${(((value - target) / target) * 100).toFixed(0)} %)`;
  }
  rows.push(
    `| ${measure} | ${target === undefined ? '—' : `≤ ${target} ${unit}`} | ${value.toFixed(1)} ${unit} | ${verdict} |`,
  );
};

try {
  // The data: 100 small runs of every state, and one large one.
  let t0 = now();
  for (let i = 0; i < RUNS; i++) {
    writeInternalizeRun(join(root, `run-${String(i).padStart(3, '0')}`), {
      runId: `run-${i}`,
      seed: i,
      steps: 10,
      variant: i % 3 === 0 ? 'grpo' : 'skillc',
      complete: i % 7 !== 0,
      errorEvery: i % 5 === 0 ? 13 : 0,
    });
  }
  const groupSize = 10;
  const tasksPerStep = 8;
  const steps = Math.ceil(ROLLOUTS / (groupSize * tasksPerStep));
  writeInternalizeRun(join(root, 'big'), {
    runId: 'big',
    steps,
    tasksPerStep,
    groupSize,
    validateEvery: 50,
    trajectorySteps: 3,
    observationBytes: 120,
  });
  const written = (now() - t0) / 1000;
  console.error(
    `wrote ${RUNS} runs and one of ${steps * groupSize * tasksPerStep} training rollouts in ${written.toFixed(1)} s (${work})`,
  );

  // Runs list, cold then warm.
  let serve = await startServe({ dir: root });
  t0 = now();
  const r = await fetch(`${serve.url}api/runs`);
  const list = await r.json();
  const cold = now() - t0;
  if (list.runs.length !== RUNS + 1) throw new Error(`listed ${list.runs.length} runs, expected ${RUNS + 1}`);
  const warm = [];
  for (let i = 0; i < 5; i++) {
    t0 = now();
    await (await fetch(`${serve.url}api/runs`)).json();
    warm.push(now() - t0);
  }
  row(`runs list, ${RUNS + 1} runs, server's first read (GET /api/runs)`, 1000, cold, 'ms');
  row('runs list, again (median of 5)', 1000, median(warm), 'ms');
  await serve.close();

  // The page itself, on a fresh server: from navigation to the list drawn.
  const chromiumPath = '/usr/bin/chromium';
  if (existsSync(chromiumPath)) {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    // The browser warmed on another server first (as a user's browser is already running): what is measured
    // is this server's first answer and the page drawing it.
    const small = mkdtempSync(join(tmpdir(), 'serve-bench-warm-'));
    writeInternalizeRun(join(small, 'one'), { runId: 'one', steps: 1 });
    const warmServer = await startServe({ dir: small });
    const page = await browser.newPage();
    await page.goto(warmServer.url);
    await page.waitForSelector('main[data-loaded]');
    await warmServer.close();
    rmSync(small, { recursive: true, force: true });
    serve = await startServe({ dir: root });
    t0 = now();
    await page.goto(serve.url);
    await page.waitForSelector('main[data-loaded] tr[data-run="big"]', { timeout: 60_000 });
    row(
      `runs list page in Chromium, ${RUNS + 1} runs, cold server (navigation → table drawn)`,
      1000,
      now() - t0,
      'ms',
    );
    t0 = now();
    await page.reload();
    await page.waitForSelector('main[data-loaded] tr[data-run="big"]', { timeout: 60_000 });
    row('runs list page, reloaded (server warm)', 1000, now() - t0, 'ms');
    await browser.close();
    await serve.close();
  } else {
    rows.push('| runs list page in Chromium | ≤ 1000 ms | not measured | /usr/bin/chromium missing |');
  }

  // One trajectory of the 100k run. The first request for its rollouts indexes them (rows from the events,
  // locations from the rollouts stream); every later one reads one record.
  serve = await startServe({ dir: root });
  t0 = now();
  const firstListing = await (await fetch(`${serve.url}api/rollouts?run=big&limit=100`)).json();
  row(
    `trajectory list of a ${firstListing.total}-rollout run, first open (indexes the run)`,
    undefined,
    now() - t0,
    'ms',
  );
  const ids = (
    await (await fetch(`${serve.url}api/rollouts?run=big&unit=s${Math.floor(steps / 2)}&limit=100`)).json()
  ).rows.map((x) => x.id);
  const pick = (i) => ids[(i * 37) % ids.length];
  const ask = async (id) => {
    const t = now();
    const res = await fetch(`${serve.url}api/trajectory?run=big&id=${encodeURIComponent(id)}`);
    if (!res.ok) throw new Error(`trajectory ${id}: ${res.status}`);
    await res.json();
    return now() - t;
  };
  const firstTrajectory = await ask(pick(0));
  const trajectories = [];
  for (let i = 1; i <= 30; i++) trajectories.push(await ask(pick(i)));
  row('first trajectory opened (its gzip segment inflated)', 200, firstTrajectory, 'ms');
  row('one trajectory, the run indexed (median of 30)', 200, median(trajectories), 'ms');
  row('one trajectory, the run indexed (slowest of 30)', 200, Math.max(...trajectories), 'ms');
  t0 = now();
  await (await fetch(`${serve.url}api/rollouts?run=big&family=clean&z=0&outcome=passed&limit=200`)).json();
  row('trajectory list filtered (family, z, outcome) over the whole run', 200, now() - t0, 'ms');
  await serve.close();

  // Memory while a run streams.
  serve = await startServe({ dir: root, pollMs: 1000 });
  const liveDir = join(root, 'streaming');
  const writer = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { writeInternalizeRun } from ${JSON.stringify(join(here, 'synthetic-runs.mjs'))};
       const run = writeInternalizeRun(${JSON.stringify(liveDir)}, { runId: 'streaming', steps: 1e9, tasksPerStep: 4, groupSize: 8, validateEvery: 25, keepOpen: true, trajectorySteps: 6 });
       let t = 0;
       const timer = setInterval(() => run.step(++t), 100);
       setTimeout(() => { clearInterval(timer); run.close(); process.stdout.write(String(t)); }, ${STREAM_SECONDS * 1000});`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stepsWritten = '';
  writer.stdout.on('data', (c) => {
    stepsWritten += c;
  });
  const writerDone = new Promise((resolve) => writer.on('exit', resolve));
  // A live page: the change stream, and every second the run page, the first page of its trajectory list and
  // a trajectory, as someone watching it would load them.
  const events = await fetch(`${serve.url}api/live`);
  const reader = events.body.getReader();
  let messages = 0;
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true }));
      if (done) break;
      messages += new TextDecoder().decode(value).split('event: run').length - 1;
    }
  })();
  const samples = [];
  const sample = () => {
    gc();
    const m = process.memoryUsage();
    samples.push({ rss: m.rss, heap: m.heapUsed });
  };
  await new Promise((res) => setTimeout(res, 1500));
  sample();
  const started = now();
  while (now() - started < STREAM_SECONDS * 1000) {
    await new Promise((res) => setTimeout(res, 1000));
    if (!existsSync(liveDir)) continue;
    await (await fetch(`${serve.url}api/run?run=streaming`)).json();
    if (CHARTS_ONLY) {
      sample();
      continue;
    }
    const page = await (await fetch(`${serve.url}api/rollouts?run=streaming&limit=100`)).json();
    const any = page.rows.at(-1);
    if (any)
      await (await fetch(`${serve.url}api/trajectory?run=streaming&id=${encodeURIComponent(any.id)}`)).json();
    sample();
  }
  await writerDone;
  await new Promise((res) => setTimeout(res, 1500));
  sample();
  await reader.cancel().catch(() => {});
  const detail = await (await fetch(`${serve.url}api/run?run=streaming`)).json();
  await serve.close();
  const first = samples[0];
  const last = samples.at(-1);
  const streamed = detail.summary.rollouts;
  const mid = samples[Math.floor(samples.length / 2)];
  rows.push(
    `| memory while a run streams for ${STREAM_SECONDS} s, watched ${CHARTS_ONLY ? 'through its run page only' : 'with its trajectory list open'} (${stepsWritten} steps, ${streamed} rollouts, ${messages} live messages) | flat | RSS ${mib(first.rss).toFixed(0)} → ${mib(mid.rss).toFixed(0)} → ${mib(last.rss).toFixed(0)} MiB (max ${mib(Math.max(...samples.map((s) => s.rss))).toFixed(0)}); heap after GC ${mib(first.heap).toFixed(1)} → ${mib(mid.heap).toFixed(1)} → ${mib(last.heap).toFixed(1)} MiB | heap +${((((last.heap - first.heap) / Math.max(1, streamed)) * 1e4) / (1 << 20)).toFixed(2)} MiB per 10k rollouts streamed${CHARTS_ONLY ? '' : " (the trajectory list's row and index per rollout)"} |`,
  );

  console.log(
    `\n## skillrl serve bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${(await import('node:os')).cpus().length} cores)\n`,
  );
  console.log('| measure | target | measured | met? |');
  console.log('|---|---|---|---|');
  for (const line of rows) console.log(line);
} finally {
  if (KEEP) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
