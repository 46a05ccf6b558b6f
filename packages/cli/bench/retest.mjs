// Is a row's seed spread in its trained policies, or in how they are tested (issue 38)? Re-tests the last
// checkpoint of every internalize run bench:paper left under --out on that run's own held-out test (the same
// tasks, without skills), at other sampling settings: verl-agent's ALFWorld scripts validate at temperature
// 0.4 (`val_kwargs.temperature=0.4`), the bench tests at the agent's own temperature (1). Nothing is trained;
// each run's numbers are kept in <out>/diagnostics/retest-<run>.json and reused for the same settings.
//
//   node bench/retest.mjs [--out runs/paper] [--budget published] [--rows grpo-no-skills,skillc]
//        [--sampling 1,0.4,greedy]   temperatures, or `greedy` (the most likely action every time)
//        [--checkpoints]   also re-test, at the first setting, every kept checkpoint on a multiple of 10 steps
//                     and the mean of the kept checkpoints' weights (a run that kept them: `store.keepCheckpoints`)
//
// The score is the run's test score: the mean over task types of each type's success rate. Episodes are
// seeded from the run's seed, the setting and the task, so the same command gives the same table.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRng } from '@skillrl/core';
import { loadSkillReadingAgent } from '@skillrl/policy-tfjs';
import { runEpisode } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { finishedRuns } from './finished-runs.mjs';
import { mean, pairedDifference, sd } from './paired-stats.mjs';
import { finalCheckpoint } from './transfer-ratio.mjs';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: 'runs/paper' },
    budget: { type: 'string', default: 'published' },
    rows: { type: 'string' },
    sampling: { type: 'string', default: '1,0.4,greedy' },
    checkpoints: { type: 'boolean', default: false },
  },
});
const out = resolve(args.out);
if (!existsSync(out)) {
  process.stderr.write(`--out: ${out} does not exist; run bench:paper first (or pass the folder it wrote)\n`);
  process.exit(2);
}
const settings = args.sampling.split(',').map((s) => s.trim());
for (const s of settings) {
  if (s !== 'greedy' && !(Number(s) > 0)) {
    process.stderr.write(
      `--sampling: "${s}" is neither a temperature > 0 nor "greedy"; e.g. --sampling 1,0.4,greedy\n`,
    );
    process.exit(2);
  }
}
const wantedRows = args.rows ? new Set(args.rows.split(',')) : undefined;
const runs = finishedRuns(out, args.budget, wantedRows);
if (runs.length === 0) {
  process.stderr.write(
    `no finished ${args.budget} internalize runs under ${out} (names skillc-${args.budget}-<row>-seed<n>)\n`,
  );
  process.exit(1);
}

/** The run's test score under one sampling setting: its own test tasks, without skills. */
async function retest(runDir, config, agent, setting) {
  const section = config.internalize?.test;
  if (!section) throw new Error(`${runDir}: its config has no internalize.test to re-test on`);
  if (config.adapter !== 'household') {
    throw new Error(
      `${runDir}: adapter ${JSON.stringify(config.adapter)}; this bench re-tests household runs`,
    );
  }
  // As the orchestrator loads them: the selection's own seed, else the run's seed + 2.
  const tasks = await household.load({
    split: section.split,
    seed: section.seed ?? config.seed + 2,
    ...(section.limit !== undefined ? { limit: section.limit } : {}),
  });
  const sampled = agent.withSampling(
    setting === 'greedy' ? { greedy: true } : { temperature: Number(setting) },
  );
  const byType = {};
  for (const task of tasks) {
    const t = await runEpisode({
      agent: sampled,
      env: await household.createEnvironment(task),
      task,
      verifier: household.verifier(task),
      ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
      seed: createRng(config.seed).seedFor(`retest/${setting}/${task.id}`),
    });
    byType[task.family] ??= { passed: 0, episodes: 0 };
    byType[task.family].episodes++;
    if (t.verdict.passed) byType[task.family].passed++;
  }
  return mean(Object.values(byType).map((f) => f.passed / f.episodes));
}

/** A run's kept agent checkpoints, by step: checkpoints/state-<step>/agent. */
function keptCheckpoints(runDir) {
  return readdirSync(join(runDir, 'checkpoints'))
    .map((n) => /^state-(\d+)$/.exec(n))
    .filter(Boolean)
    .map((m) => ({ step: Number(m[1]), dir: join(runDir, 'checkpoints', m[0], 'agent') }))
    .sort((a, b) => a.step - b.step);
}

/** Every kept checkpoint on a multiple of 10 steps, and the element-wise mean of all kept ones' weights. */
async function retestCheckpoints(runDir, config, setting) {
  const kept = keptCheckpoints(runDir);
  const byStep = {};
  for (const c of kept.filter((c) => c.step % 10 === 0))
    byStep[c.step] = await retest(runDir, config, await loadSkillReadingAgent(c.dir), setting);
  const averaged = await loadSkillReadingAgent(kept.at(-1).dir);
  const sums = Object.fromEntries(
    Object.entries(averaged.parameters).map(([k, v]) => [k, new Float32Array(v.length)]),
  );
  for (const c of kept) {
    const { parameters } = await loadSkillReadingAgent(c.dir);
    for (const [k, v] of Object.entries(parameters))
      for (let i = 0; i < v.length; i++) sums[k][i] += v[i] / kept.length;
  }
  averaged.setParameters(sums);
  return {
    setting,
    byStep,
    averaged: {
      from: kept[0].step,
      to: kept.at(-1).step,
      score: await retest(runDir, config, averaged, setting),
    },
  };
}

mkdirSync(join(out, 'diagnostics'), { recursive: true });
const byRow = new Map();
for (const run of runs) {
  const dir = join(out, run.name);
  const cache = join(out, 'diagnostics', `retest-${run.name}.json`);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  // What was measured is reused only for the same policy: the run's last checkpoint, and its own test score.
  const policy = {
    checkpoint: finalCheckpoint(dir).slice(dir.length + 1),
    test: summary.metrics?.test_success_without,
  };
  const stored = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : undefined;
  const kept =
    stored && JSON.stringify(stored.policy) === JSON.stringify(policy) ? stored : { policy, scores: {} };
  const missing = settings.filter((s) => !(s in kept.scores));
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  if (missing.length > 0) {
    const agent = await loadSkillReadingAgent(finalCheckpoint(dir));
    for (const s of missing) kept.scores[s] = await retest(dir, config, agent, s);
  }
  const checkpointsDue = args.checkpoints && kept.checkpoints?.setting !== settings[0];
  if (checkpointsDue) kept.checkpoints = await retestCheckpoints(dir, config, settings[0]);
  if (missing.length > 0 || checkpointsDue) {
    writeFileSync(cache, `${JSON.stringify(kept, null, 2)}\n`);
    process.stderr.write(`  retested ${run.name}\n`);
  }
  const list = byRow.get(run.row) ?? [];
  list.push({
    seed: run.seed,
    own: summary.metrics?.test_success_without ?? Number.NaN,
    ...kept.scores,
    checkpoints: kept.checkpoints,
  });
  byRow.set(run.row, list);
}

const pct = (x) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '—');
const pts = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}` : '—');
const label = (s) => (s === 'own' ? "the run's own test" : s === 'greedy' ? 'greedy' : `temperature ${s}`);
const columns = ['own', ...settings];
const lines = [
  `## Re-tested: the last checkpoint of ${runs.length} ${args.budget}-budget runs under ${out}`,
  '',
  "Each run's policy as it ended, on its own held-out test tasks without skills, at each sampling setting",
  '("the run\'s own test" is the score in its summary: temperature 1, other episode seeds). Test %, mean ± SD',
  'over seeds (min–max), and each row against SKILLC, paired by seed (t 95 %).',
  '',
  `| row | seeds | ${columns.map(label).join(' | ')} |`,
  `|---|---|${columns.map(() => '---|').join('')}`,
];
for (const [row, list] of byRow) {
  const cell = (key) => {
    const xs = list.map((r) => r[key]).filter(Number.isFinite);
    return `${pct(mean(xs))} ± ${pct(sd(xs))} (${pct(Math.min(...xs))}–${pct(Math.max(...xs))})`;
  };
  lines.push(`| ${row} | ${list.length} | ${columns.map(cell).join(' | ')} |`);
}
const reference = byRow.get('skillc');
if (reference) {
  lines.push(
    '',
    `| SKILLC − row | ${columns.map(label).join(' | ')} |`,
    `|---|${columns.map(() => '---|').join('')}`,
  );
  for (const [row, list] of byRow) {
    if (row === 'skillc') continue;
    const cell = (key) => {
      const d = pairedDifference(
        reference.map((r) => [r.seed, r[key]]),
        list.map((r) => [r.seed, r[key]]),
      );
      return `${pts(d.mean)} [${pts(d.lo)}, ${pts(d.hi)}]`;
    };
    lines.push(`| SKILLC − ${row} | ${columns.map(cell).join(' | ')} |`);
  }
}
// Within a run, near its end: is the policy still moving (a climb, or noise a weight average would remove)?
if (args.checkpoints) {
  lines.push(
    '',
    `### Each run's kept checkpoints, ${label(settings[0])}`,
    '',
    'Test % at each kept checkpoint on a multiple of 10 steps; their SD within the run; and the mean of all kept',
    "checkpoints' weights (steps from–to), tested the same way.",
    '',
    '| row | seed | test % by step | SD within the run | last | mean of the weights (steps) |',
    '|---|---|---|---|---|---|',
  );
  for (const [row, list] of byRow)
    for (const r of list) {
      const c = r.checkpoints;
      if (!c) continue;
      const scores = Object.values(c.byStep);
      lines.push(
        `| ${row} | ${r.seed} | ${Object.entries(c.byStep)
          .map(([step, x]) => `${step}: ${pct(x)}`)
          .join(
            ', ',
          )} | ${pct(sd(scores))} | ${pct(scores.at(-1))} | ${pct(c.averaged.score)} (${c.averaged.from}–${c.averaged.to}) |`,
      );
    }
}
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
writeFileSync(join(out, `retest-${args.budget}.md`), text);
