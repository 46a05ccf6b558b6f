// What a run costs as it gets longer: peak memory and bytes on disk per episode of the household SKILLC
// example (examples/household-skillc/skillc.yaml: the skill-reading tfjs policy trained by the tfjs trainer,
// 4 tasks × 8 rollouts a step, a paired validation every 5 steps), at several lengths.
//
//   pnpm --filter @skillrl/orchestrator build
//   pnpm --filter @skillrl/orchestrator bench:cost                 # 50 and 800 steps (the 800 takes a while)
//   node bench/run-cost.mjs --steps 20,100 [--out <dir>] [--keep]   # other lengths
//   node bench/run-cost.mjs --steps 50,800 --resume                 # also: the longest run SIGKILLed at 3/4
//                                                                   # of its steps, then resumed
//
// Each length is an ordinary `skillrl run` (the CLI in a child process, the same code as the binary) of the
// example with `internalize.steps` changed; peak RSS is that process's own (`process.resourceUsage().maxRSS`).
// Targets: peak RSS of the longest run ≤ 1.2 × the shortest's, and ≤ 10 KB of run directory per episode.
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
import { parse, stringify } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const example = resolve(here, '../../../examples/household-skillc/skillc.yaml');

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const steps = String(flag('--steps', '50,800'))
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1);
const out = resolve(flag('--out', mkdtempSync(join(tmpdir(), 'skillrl-run-cost-'))));
const keep = args.includes('--keep');
const measureResume = args.includes('--resume');
if (steps.length === 0) {
  console.error('error: --steps expects comma-separated integers >= 1, e.g. --steps 50,800');
  process.exit(2);
}

// The child: the CLI in-process (exactly what the binary runs), then its own peak RSS on the last line.
const child = `
  const { runCli } = await import(${JSON.stringify(resolve(here, '../dist/index.js'))});
  const code = await runCli(process.argv.slice(1), { out: (t) => process.stdout.write(t + '\\n'), err: () => {} });
  process.stdout.write(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }) + '\\n');
  process.exitCode = code;
`;

function runOnce(config, command = 'run') {
  return new Promise((resolveRun, reject) => {
    const started = Date.now();
    const proc = spawn(process.execPath, ['--input-type=module', '-e', child, command, config, '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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

mkdirSync(out, { recursive: true });
const base = parse(readFileSync(example, 'utf8'));
const rows = [];
for (const n of steps) {
  const config = join(out, `skillc-${n}.yaml`);
  writeFileSync(
    config,
    stringify({ ...base, name: `household-skillc-${n}`, internalize: { ...base.internalize, steps: n } }),
  );
  process.stderr.write(`running ${n} steps … `);
  const { result, maxRssKiB, wallS } = await runOnce(config);
  const episodes = result.metrics.rollouts;
  const bytes = bytesUnder(result.dir);
  const row = {
    steps: n,
    episodes,
    wallS,
    peakRssMiB: maxRssKiB / 1024,
    dirBytes: bytes,
    bytesPerEpisode: bytes / episodes,
  };
  rows.push(row);
  process.stderr.write(`${wallS.toFixed(0)} s\n`);
  if (!keep) rmSync(result.dir, { recursive: true, force: true });
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
const resumeRow = measureResume ? await killAndResume(steps[steps.length - 1]) : undefined;

const pad = (s, n) => String(s).padStart(n);
console.log(`household SKILLC example (${example}), tfjs skill-reading agent + tfjs trainer`);
console.log(
  `${pad('steps', 6)} ${pad('episodes', 9)} ${pad('wall s', 8)} ${pad('peak RSS MiB', 13)} ${pad('run dir MB', 11)} ${pad('bytes/episode', 14)}`,
);
for (const r of rows) {
  console.log(
    `${pad(r.steps, 6)} ${pad(r.episodes, 9)} ${pad(r.wallS.toFixed(0), 8)} ${pad(r.peakRssMiB.toFixed(0), 13)} ${pad((r.dirBytes / 1e6).toFixed(1), 11)} ${pad(r.bytesPerEpisode.toFixed(0), 14)}`,
  );
}
const first = rows[0];
const last = rows[rows.length - 1];
const ratio = last.peakRssMiB / first.peakRssMiB;
const worstBytes = Math.max(...rows.map((r) => r.bytesPerEpisode));
const verdict = (ok) => (ok ? 'met' : 'NOT met');
if (rows.length > 1) {
  console.log(
    `peak RSS ${last.steps} vs ${first.steps} steps: ${ratio.toFixed(2)}× (target ≤ 1.2×: ${verdict(ratio <= 1.2)})`,
  );
}
console.log(
  `bytes per episode, worst: ${worstBytes.toFixed(0)} (target ≤ 10240: ${verdict(worstBytes <= 10240)})`,
);
if (resumeRow) {
  console.log(
    `resume of the ${resumeRow.steps}-step run killed after step ${resumeRow.from}: peak RSS ${resumeRow.peakRssMiB.toFixed(0)} MiB (${(resumeRow.peakRssMiB / first.peakRssMiB).toFixed(2)}× the ${first.steps}-step run), ${resumeRow.wallS.toFixed(0)} s`,
  );
}
const numbers = { example, rows, ratio, worstBytes, ...(resumeRow ? { resume: resumeRow } : {}) };
writeFileSync(join(out, 'run-cost.json'), `${JSON.stringify(numbers, null, 2)}\n`);
console.log(`numbers: ${join(out, 'run-cost.json')}`);
