// Estimator throughput on N samples in groups of 8, against the built package (`pnpm build` first), beside
// numpy's vectorised GRPO on the same machine when python3 and numpy are there.
// Usage: node bench/estimators.bench.mjs [N] [runs]   (defaults 10_000_000 and 5; seed 42)
//
// The JavaScript figures are taken three times, in child processes: with glibc's default malloc (a fresh
// output array per call), the same with one output array reused across calls (`estimate(batch, { out })`,
// what a training loop does), and fresh outputs with GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which backs large
// allocations with transparent huge pages. numpy asks for huge pages on its own large arrays (madvise), so
// the last column is the like-for-like one for fresh outputs; on VMs where page faults are slow the first
// column is dominated by faulting in the fresh 80 MB output. numpy's `out=` form is the reused-output twin.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 10_000_000);
const RUNS = Number(process.argv[3] ?? 5);
const GROUP = 8;
const SEED = 42;
const HERE = dirname(fileURLToPath(import.meta.url));

async function measureAll() {
  const { createRng } = await import('@skillrl/core');
  const { createEstimator } = await import('../dist/index.js');
  const rng = createRng(SEED);
  const scores = new Float64Array(N);
  for (let i = 0; i < N; i++) scores[i] = rng.float();
  const groupIds = new Int32Array(N);
  const conditions = new Int32Array(N);
  const instanceIds = new Int32Array(N);
  const generations = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    groupIds[i] = Math.floor(i / GROUP);
    conditions[i] = i & 1;
    // Skill-R1: four generations of 8 candidates per instance, so each (instance, generation) group has 8.
    instanceIds[i] = Math.floor(i / (4 * GROUP));
    generations[i] = Math.floor(i / GROUP) % 4;
  }
  // Batches are built when their turn comes: the string ids (10 M strings) would otherwise sit in the heap
  // during the other cases and make every garbage collection walk them.
  const cases = [
    ['grpo', () => ({ scores, groupIds })],
    ['rloo', () => ({ scores, groupIds })],
    ['skill-r1', () => ({ scores, groupIds: instanceIds, generations })],
    ['skillc', () => ({ scores, groupIds, conditions })],
    [
      'grpo',
      () => ({ scores, groupIds: Array.from(groupIds, (g) => `task-${g}`) }),
      'grpo, string group ids (Map path)',
    ],
  ];
  const rates = {};
  const reuse = process.env.SKILLRL_BENCH_OUT === '1';
  const out = reuse ? new Float64Array(N) : undefined;
  for (const [name, makeBatch, label] of cases) {
    const batch = makeBatch();
    const estimator = createEstimator(name);
    const options = out ? { out } : undefined;
    estimator.estimate(batch, options); // warm-up: lets V8 optimise the loops before timing
    let best = Number.POSITIVE_INFINITY;
    for (let r = 0; r < RUNS; r++) {
      const t0 = process.hrtime.bigint();
      const { advantages } = estimator.estimate(batch, options);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (advantages.length !== N) throw new Error(`${name}: wrong length`);
      best = Math.min(best, seconds);
    }
    rates[label ?? name] = N / best;
  }
  return rates;
}

function child(env) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), String(N), String(RUNS)], {
    encoding: 'utf8',
    env: { ...process.env, ...env, SKILLRL_BENCH_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop());
}

function numpyFigures() {
  try {
    const out = execFileSync(
      'python3',
      [join(HERE, 'grpo_numpy.py'), String(N), String(GROUP), String(RUNS), String(SEED)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return JSON.parse(out.trim().split('\n').pop());
  } catch (error) {
    return { skipped: String(error.message ?? error).split('\n')[0] };
  }
}

if (process.env.SKILLRL_BENCH_CHILD) {
  console.log(JSON.stringify(await measureAll()));
} else {
  const fmt = (rate) => (rate === undefined ? '' : `${(rate / 1e6).toFixed(1)} M`);
  // numpy runs before and after the JavaScript, so a change in machine load between them shows up.
  const numpyBefore = numpyFigures();
  const plain = child({ GLIBC_TUNABLES: '', SKILLRL_BENCH_OUT: '' });
  const reused = child({ GLIBC_TUNABLES: '', SKILLRL_BENCH_OUT: '1' });
  const huge = child({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', SKILLRL_BENCH_OUT: '' });
  const numpyAfter = numpyFigures();
  const rows = Object.keys(plain).map((name) => [name, fmt(plain[name]), fmt(reused[name]), fmt(huge[name])]);
  for (const [when, numpy] of [
    ['before', numpyBefore],
    ['after', numpyAfter],
  ]) {
    if (numpy.skipped) {
      rows.push([`numpy grpo (${when})`, `skipped: ${numpy.skipped}`, '', '']);
      continue;
    }
    rows.push([
      `numpy ${numpy.numpy} grpo, reshape (${when})`,
      '',
      fmt(numpy.reshape_out),
      fmt(numpy.reshape),
    ]);
    rows.push([`numpy ${numpy.numpy} grpo, bincount (${when})`, '', '', fmt(numpy.bincount)]);
  }
  console.log(
    `\n${N.toLocaleString('en')} samples, groups of ${GROUP}, best of ${RUNS}, seed ${SEED}, node ${process.version}\n`,
  );
  const head = ['estimator', 'samples/s, fresh output', 'reused output (out)', 'fresh output, huge pages'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  console.log(line(head));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}
