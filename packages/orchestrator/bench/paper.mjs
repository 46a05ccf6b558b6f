// The papers' two tables, offline on household, averaged over seeds: `pnpm bench:paper` from the repository
// root (it builds first), or `node bench/paper.mjs [--seeds 1,2,3] [--jobs 2] [--out runs/paper] [--quick]
// [--only skill-r1|skillc]` from this package after `pnpm build`.
//
// Every run is an ordinary `skillrl run` of a config written under --out, so each row can be inspected,
// resumed or rerun alone; a run whose summary.json is already there is not run again (rerunning the command
// after an interruption finishes the rest). Tables go to stdout and to <out>/paper-tables.md, the numbers
// behind them to <out>/paper-results.json.
//
// Skill-R1 (arXiv 2605.09359, its Table: no skill / vanilla GRPO / Skill-R1 inference / Skill-R1 GRPO): the
// frozen skill-reading agent is the task model and the trainable step editor the generator; the score is the
// success of fresh episodes under each task's final skill (`evolve.finalEpisodes`), not the best candidate's
// own (selection-biased) reward.
// SKILLC (arXiv 2605.27899, success without skills per ALFWorld type, plus ablations): the skill-reading
// policy trained by each variant; the score is a held-out test split run without skills after training
// (`internalize.test`), which the curriculum never sees.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'dist', 'cli.js');

const { values: args } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3' },
    jobs: { type: 'string', default: String(Math.min(2, availableParallelism())) },
    out: { type: 'string', default: 'runs/paper' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const seeds = args.seeds.split(',').map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--seeds: expected integers >= 0 separated by commas, got "${s}"`);
  return n;
});
const jobs = Number(args.jobs);
if (!Number.isInteger(jobs) || jobs < 1)
  throw new Error(`--jobs: expected an integer >= 1, got "${args.jobs}"`);
if (args.only && !['skill-r1', 'skillc'].includes(args.only))
  throw new Error(`--only: expected skill-r1 or skillc, got "${args.only}"`);
const out = resolve(args.out);

// Sizes: `full` is what the README's tables come from; `quick` checks the script end to end in a minute.
const SIZE = args.quick
  ? {
      evolve: { tasks: 6, generations: 2, candidates: 4, episodes: 2, finalEpisodes: 2 },
      internalize: { steps: 6, tasksPerStep: 4, groupSize: 8, validateEvery: 3, validation: 12, test: 12 },
    }
  : {
      evolve: { tasks: 24, generations: 8, candidates: 8, episodes: 4, finalEpisodes: 8 },
      internalize: {
        steps: 120,
        tasksPerStep: 8,
        groupSize: 8,
        validateEvery: 10,
        validation: 48,
        test: 120,
      },
    };
const TRAINER = {
  name: 'tfjs',
  options: { lr: 0.05, kl: { kind: 'k3', coef: 0.001 }, aggregation: 'seq-mean-token-mean' },
};

const SKILL_R1_ROWS = [
  ['No skill', { variant: 'no-skill' }],
  ['Vanilla GRPO', { variant: 'vanilla-grpo', mode: 'grpo' }],
  ['Skill-R1 (inference)', { variant: 'skill-r1', mode: 'inference' }],
  ['Skill-R1 (GRPO)', { variant: 'skill-r1', mode: 'grpo' }],
];
const SKILLC_ROWS = [
  ['GRPO (no skills)', { variant: 'grpo' }],
  ['SKILL0', { variant: 'skill0' }],
  ['D2Skill (mixed normalisation)', { variant: 'd2skill-mixed' }],
  ['SKILLC', { variant: 'skillc' }],
  ['SKILLC w/o paired rollouts', { variant: 'skillc', ablation: 'no-pairing' }],
  ['SKILLC fixed ρ = 0.5', { variant: 'skillc', ablation: 'fixed-rho' }],
  ['SKILLC w/o pruning', { variant: 'skillc', ablation: 'no-pruning' }],
  ['SKILLC optimistic start', { variant: 'skillc', ablation: 'optimistic-start' }],
];
const FAMILIES = [
  ['pick_and_place_simple', 'Pick'],
  ['look_at_obj_in_light', 'Look'],
  ['pick_clean_then_place_in_recep', 'Clean'],
  ['pick_heat_then_place_in_recep', 'Heat'],
  ['pick_cool_then_place_in_recep', 'Cool'],
  ['pick_two_obj_and_place', 'Pick2'],
];

const slug = (label) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function evolveConfig(label, section, seed) {
  const s = SIZE.evolve;
  return {
    method: 'evolve',
    seed,
    name: `skill-r1-${slug(label)}-seed${seed}`,
    adapter: 'household',
    tasks: { split: 'train', limit: s.tasks },
    agent: 'skill-reading',
    concurrency: 8,
    evolve: {
      // Each baseline takes only the knobs it has: vanilla GRPO is one generation, no-skill has no editor.
      ...(section.variant === 'skill-r1' ? { generations: s.generations } : {}),
      // keepPrior 1: the step editor edits about half its proposals (the default keeps three in four).
      ...(section.variant === 'no-skill'
        ? {}
        : { candidates: s.candidates, generator: { name: 'step-editor', options: { keepPrior: 1 } } }),
      episodes: s.episodes,
      finalEpisodes: s.finalEpisodes,
      ...section,
    },
  };
}

function internalizeConfig(label, section, seed) {
  const s = SIZE.internalize;
  return {
    method: 'internalize',
    seed,
    name: `skillc-${slug(label)}-seed${seed}`,
    adapter: 'household',
    tasks: { split: 'train', limit: 512 },
    agent: 'skill-reading',
    concurrency: 8,
    internalize: {
      steps: s.steps,
      tasksPerStep: s.tasksPerStep,
      groupSize: s.groupSize,
      validateEvery: s.validateEvery,
      validation: { split: 'valid_seen', limit: s.validation },
      test: { split: 'valid_unseen', limit: s.test },
      trainer: TRAINER,
      ...section,
    },
  };
}

function runOne(config) {
  const dir = join(out, config.name);
  const summaryPath = join(dir, 'summary.json');
  const configPath = join(out, 'configs', `${config.name}.json`);
  const text = `${JSON.stringify(config, null, 2)}\n`;
  if (existsSync(configPath) && readFileSync(configPath, 'utf8') !== text) {
    // Reusing a run made with other settings would mix two experiments in one table.
    return Promise.reject(
      new Error(
        `${config.name}: ${out} holds this run with other settings; pass another --out, or delete ${dir}`,
      ),
    );
  }
  if (existsSync(summaryPath)) return Promise.resolve({ dir, summary: readJson(summaryPath), reused: true });
  mkdirSync(dirname(configPath), { recursive: true });
  writeFileSync(configPath, text);
  const started = Date.now();
  return new Promise((done, fail) => {
    // A run left half-done by an interrupted bench is resumed rather than refused.
    const command = existsSync(join(dir, 'run.json'))
      ? ['resume', dir]
      : ['run', configPath, '--run-dir', dir];
    execFile(
      process.execPath,
      [CLI, ...command, '--json'],
      { maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error) {
          fail(new Error(`${config.name}: ${stderr.trim() || stdout.trim() || error.message}`));
          return;
        }
        const seconds = (Date.now() - started) / 1000;
        console.error(`  done ${config.name} (${seconds.toFixed(0)} s)`);
        done({ dir, summary: readJson(summaryPath), reused: false, seconds });
      },
    );
  });
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs) =>
  xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const pct = (x) => (x === undefined || Number.isNaN(x) ? '–' : (100 * x).toFixed(1));
const pctSd = (xs) => `${pct(mean(xs))} ± ${pct(sd(xs))}`;

function table(head, rows) {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => `| ${cells.map((cell, c) => String(cell).padEnd(widths[c])).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

const started = Date.now();
mkdirSync(out, { recursive: true });
const limit = pLimit(jobs);
const plan = [];
if (args.only !== 'skillc')
  for (const [label, section] of SKILL_R1_ROWS)
    for (const seed of seeds)
      plan.push({ table: 'skill-r1', label, seed, config: evolveConfig(label, section, seed) });
if (args.only !== 'skill-r1')
  for (const [label, section] of SKILLC_ROWS)
    for (const seed of seeds)
      plan.push({ table: 'skillc', label, seed, config: internalizeConfig(label, section, seed) });

console.error(`bench:paper: ${plan.length} runs, seeds ${seeds.join(',')}, ${jobs} at a time, into ${out}`);
const results = await Promise.all(
  plan.map((item) => limit(async () => ({ ...item, ...(await runOne(item.config)) }))),
);

const sections = [];
const header = `Offline household (@skillrl/task-household), skill-reading tfjs agent; seeds ${seeds.join(', ')}; ${
  args.quick ? 'QUICK sizes (a smoke test, not for quoting)' : 'full sizes'
}; mean ± sd over seeds.`;
sections.push(header);

const json = { seeds, sizes: SIZE, trainer: TRAINER, skillR1: [], skillc: [] };
if (args.only !== 'skillc') {
  const rows = SKILL_R1_ROWS.map(([label]) => {
    const mine = results.filter((r) => r.table === 'skill-r1' && r.label === label);
    const accuracy = mine.map((r) => r.summary.metrics.final_eval_success);
    const generations = Array.from({ length: SIZE.evolve.generations + 1 }, (_, g) =>
      mine.map((r) => r.summary.metrics[`generation_${g}_mean`]).filter((x) => x !== undefined),
    );
    json.skillR1.push({ label, accuracy, generations, runs: mine.map((r) => r.dir) });
    return [
      label,
      pctSd(accuracy),
      accuracy.map(pct).join(' / '),
      generations.map((xs) => (xs.length ? pct(mean(xs)) : '–')).join(' → '),
    ];
  });
  const s = SIZE.evolve;
  sections.push(
    `### Skill-R1 on household (${s.tasks} train tasks, G = ${s.generations}, K = ${s.candidates}, M = ${s.episodes})\n\n` +
      `Accuracy = success of ${s.finalEpisodes} fresh episodes per task under its final skill (%).\n\n${table(
        ['method', 'accuracy', 'per seed', 'mean reward by generation (0 = s0)'],
        rows,
      )}`,
  );
}
if (args.only !== 'skill-r1') {
  const rows = SKILLC_ROWS.map(([label]) => {
    const mine = results.filter((r) => r.table === 'skillc' && r.label === label);
    const m = (key) => mine.map((r) => r.summary.metrics[key] ?? Number.NaN);
    const perFamily = FAMILIES.map(([family]) => m(`test_without_${family}`));
    const all = m('test_success_without');
    const withSkill = m('test_success_with');
    // The GRPO baseline trains and tests without skills: it has no with-skill rate.
    const skillFree = SKILLC_ROWS.find(([l]) => l === label)?.[1].variant === 'grpo';
    json.skillc.push({
      label,
      withoutSkill: all,
      withSkill: skillFree ? null : withSkill,
      perFamily: Object.fromEntries(FAMILIES.map(([f], i) => [f, perFamily[i]])),
      retired: mine.map((r) => FAMILIES.length - (r.summary.metrics.final_active ?? FAMILIES.length)),
      runs: mine.map((r) => r.dir),
    });
    return [
      label,
      ...perFamily.map((xs) => pct(mean(xs))),
      pctSd(all),
      skillFree ? '–' : pct(mean(withSkill)),
    ];
  });
  const s = SIZE.internalize;
  sections.push(
    `### SKILLC on household (${s.steps} steps × ${s.tasksPerStep} tasks × ${s.groupSize} rollouts; test: ${s.test} valid_unseen tasks)\n\n` +
      `Success without skills on the held-out test split after training (%), per type and overall; the last column is the same policy with its skills.\n\n${table(
        ['method', ...FAMILIES.map(([, short]) => short), 'all (w/o skills)', 'with skills'],
        rows,
      )}`,
  );
}
const minutes = ((Date.now() - started) / 60000).toFixed(1);
sections.push(
  `Command: \`pnpm bench:paper${args.seeds === '1,2,3' ? '' : ` --seeds ${args.seeds}`}${args.quick ? ' --quick' : ''}\`; ${minutes} min wall with ${jobs} job(s); runs in ${out}.`,
);
const text = sections.join('\n\n');
writeFileSync(join(out, 'paper-tables.md'), `${text}\n`);
writeFileSync(join(out, 'paper-results.json'), `${JSON.stringify(json, null, 2)}\n`);
console.log(`\n${text}\n`);
