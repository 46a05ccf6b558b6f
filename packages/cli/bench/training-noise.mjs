// Why single runs collapse (issue 38): reads the internalize runs that bench:paper left under --out (each one an
// ordinary run directory) and prints, per run, its learning curve and what the learner measured on the way —
// the policy's entropy, the gradient norm, the approximate KL to the rollout policy and the clip fraction, each
// written by the tfjs trainer into every `step` event — beside the validation's success without skills and the
// step at which it fell. Nothing is rerun; numbers come from the runs' own events.jsonl and summary.json.
//
//   node bench/training-noise.mjs [--out runs/paper] [--budget published] [--rows grpo-no-skills,skillc]
//        [--curves]   also print each run's validation curve (success without skills at every validation)
//        [--before runs/paper-old]   the same rows of an earlier pass (another recipe) beside these: each row's
//                     seed spread before and after, with the F interval of their ratio (core's sdRatio)
//
// "Fell" means: the validation's success without skills dropped 10 points or more below the best it had
// reached so far, and the run ended below that best by as much (a fall it never climbed back from). The test
// score is the held-out test's, as in the tables.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readRunStream, readRunStreamLines } from '@skillrl/core';
import { loadSkillReadingAgent } from '@skillrl/policy-tfjs';
import { finishedRuns } from './finished-runs.mjs';
import { binomialSe, hierarchicalBootstrap, mean, pairedDifference, sd, sdRatio } from './paired-stats.mjs';
import { finalCheckpoint } from './transfer-ratio.mjs';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: 'runs/paper' },
    budget: { type: 'string', default: 'published' },
    rows: { type: 'string' },
    curves: { type: 'boolean', default: false },
    before: { type: 'string' },
  },
});
const out = resolve(args.out);
if (!existsSync(out)) {
  process.stderr.write(`--out: ${out} does not exist; run bench:paper first (or pass the folder it wrote)\n`);
  process.exit(2);
}
const FALL = 0.1;
const PICK2 = 'pick_two_obj_and_place';
// The skill-reading agent's context-free candidate features, in its order (policy-tfjs `featureRow`): the share
// of a candidate's words in the goal, in the observation, how often it was taken, whether it was the last action,
// the goal's words no earlier action touched yet, and the share in earlier actions.
const FEATURES = [
  'in goal',
  'in observation',
  'taken before',
  'last action',
  'goal words left',
  'in earlier actions',
];
const wantedRows = args.rows ? new Set(args.rows.split(',')) : undefined;

/** Success without skills at a validation (pooled over its types, weighted by their episodes). */
function withoutRate(validation) {
  let wins = 0;
  let episodes = 0;
  for (const f of Object.values(validation.families ?? {})) {
    const n = f.withoutSkillEpisodes ?? 0;
    if (n > 0 && typeof f.withoutSkill === 'number') {
      wins += f.withoutSkill * n;
      episodes += n;
    }
  }
  return episodes > 0 ? wins / episodes : Number.NaN;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};
const windowMean = (xs, from, to) => mean(xs.slice(from, to).filter(Number.isFinite));

/**
 * How a run's failed test episodes (without skills) ended: the share that used up every step the episode was
 * allowed (the longest test episode of the run), and the share of their actions that repeat an earlier action
 * of the same episode (a policy going round in circles); beside the mean length of the won ones.
 */
function failureModes(dir) {
  const episodes = [];
  // Only the test's records are parsed (a run stores tens of thousands of training rollouts before them).
  for (const line of readRunStreamLines(dir, 'rollouts')) {
    if (!line.includes('"id":"test/')) continue;
    const r = JSON.parse(line);
    if (typeof r.id === 'string' && r.id.startsWith('test/') && r.condition === 0) episodes.push(r);
  }
  const cap = Math.max(0, ...episodes.map((e) => e.steps.length));
  const failed = episodes.filter((e) => !(e.reward > 0));
  const won = episodes.filter((e) => e.reward > 0);
  const repeats = (e) => {
    const actions = e.steps.map((s) => s.action);
    return actions.length === 0 ? 0 : 1 - new Set(actions).size / actions.length;
  };
  return {
    failedAtCap: failed.length
      ? failed.filter((e) => e.steps.length >= cap).length / failed.length
      : Number.NaN,
    failedRepeats: mean(failed.map(repeats)),
    wonLength: mean(won.map((e) => e.steps.length)),
  };
}

/** Pearson's correlation of two equal-length lists; NaN (printed —) when one is constant, e.g. the weight of a feature that is off. */
function correlation(xs, ys) {
  const [mx, my] = [mean(xs), mean(ys)];
  let [sxy, sxx, syy] = [0, 0, 0];
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** One run's curve and learner statistics. */
function diagnose(dir) {
  const steps = [];
  const validations = [];
  // Pick2 (issue 38): its with-skill success at the validations, and the curriculum's λ and ρ for it at the end.
  const pick2With = [];
  let pick2Curriculum;
  for (const e of readRunStream(dir, 'events')) {
    if (e.type === 'step') steps.push({ step: e.step, ...e.metrics });
    if (e.type !== 'validation') continue;
    if (e.validation) validations.push({ step: e.step, rate: withoutRate(e.validation) });
    const f = e.validation?.families?.[PICK2];
    if (f && (f.withSkillEpisodes ?? 0) > 0) pick2With.push(f.withSkill);
    if (e.curriculum?.lambda) pick2Curriculum = e.curriculum;
  }
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  const outcomes = Object.fromEntries(
    Object.entries(summary.testOutcomes ?? {})
      .filter(([, o]) => typeof o?.without === 'number')
      .map(([task, o]) => [task, o.without]),
  );
  const curve = validations.filter((v) => Number.isFinite(v.rate));
  let best = -1;
  let bestStep = 0;
  let fellAt;
  for (const v of curve) {
    if (v.rate > best) {
      best = v.rate;
      bestStep = v.step;
      fellAt = undefined;
    } else if (fellAt === undefined && v.rate <= best - FALL) fellAt = v.step;
  }
  const last = curve.at(-1)?.rate ?? Number.NaN;
  const fell = fellAt !== undefined && last <= best - FALL ? fellAt : undefined;
  const entropy = steps.map((s) => s.train_entropy);
  const grad = steps.map((s) => s.train_grad_norm).filter(Number.isFinite);
  const kl = steps.map((s) => s.train_approx_kl).filter(Number.isFinite);
  const clip = steps.map((s) => s.train_clipfrac).filter(Number.isFinite);
  const train = steps.map((s) => s.success);
  const tenth = Math.max(1, Math.floor(steps.length / 10));
  // The tenth of the steps that ends a third of the way: where a slow seed has lost its entropy before it
  // found its successes (issue 38's diagnosis).
  const third = Math.max(tenth, Math.floor(steps.length / 3));
  const gradMedian = median(grad);
  return {
    outcomes,
    pick2Test: summary.metrics?.[`test_without_${PICK2}`] ?? Number.NaN,
    pick2With: mean(pick2With.filter(Number.isFinite)),
    pick2Lambda: pick2Curriculum?.lambda?.[PICK2],
    pick2Rho: pick2Curriculum?.rho?.[PICK2],
    pick2Retired: pick2Curriculum?.retired?.includes(PICK2) ?? false,
    test: summary.metrics?.test_success_without ?? Number.NaN,
    steps: steps.length,
    curve,
    best,
    bestStep,
    last,
    fell,
    trainStart: windowMean(train, 0, tenth),
    trainEnd: windowMean(train, -tenth),
    trainThird: windowMean(train, third - tenth, third),
    entropyThird: windowMean(entropy, third - tenth, third),
    entropyStart: windowMean(entropy, 0, tenth),
    entropyEnd: windowMean(entropy, -tenth),
    entropyMin: Math.min(...entropy.filter(Number.isFinite)),
    gradMedian,
    gradMax: Math.max(...grad),
    gradSpikes: grad.filter((g) => g > 5 * gradMedian).length,
    klMax: Math.max(...kl),
    clipMean: mean(clip),
    ...failureModes(dir),
  };
}

const runs = finishedRuns(out, args.budget, wantedRows);
if (runs.length === 0) {
  process.stderr.write(
    `no finished ${args.budget} internalize runs under ${out} (names skillc-${args.budget}-<row>-seed<n>)\n`,
  );
  process.exit(1);
}

const pct = (x) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '—');
/** A difference in points, signed. */
const pts = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}` : '—');
/** Test results over seeds: mean ± SD (min–max), in %. */
const spread = (tests) =>
  `${pct(mean(tests))} ± ${pct(sd(tests))} (${pct(Math.min(...tests))}–${pct(Math.max(...tests))})`;
const num = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '—');
/** A row's seeds split by test score: the mean of `value` over the low-test half and over the high-test half. */
const byTestHalf = (list, value) => {
  const sorted = [...list].sort((a, b) => a.test - b.test);
  const half = Math.floor(sorted.length / 2);
  return [mean(sorted.slice(0, half).map(value)), mean(sorted.slice(sorted.length - half).map(value))];
};
const lines = [
  `## Training noise: ${runs.length} ${args.budget}-budget runs under ${out}`,
  '',
  "Per run: the held-out test (success without skills), the validation curve's best and last (and the step it",
  `fell at: ${FALL * 100} points below its best, never regained), training success over the first and last tenth of`,
  'the steps, training success and entropy over the tenth that ends a third of the way, the policy entropy (first',
  'tenth → last tenth, and its minimum), the gradient norm (median, max, and steps above 5× the median), the',
  'largest approximate KL to the rollout policy, and the mean clip fraction.',
  '',
  '| row | seed | test % | val best % (step) | val last % | fell at | train % first → last | at a third: train % / entropy | entropy first → last (min) | grad norm median / max (spikes) | KL max | clipfrac |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
const byRow = new Map();
for (const run of runs) {
  const d = diagnose(join(out, run.name));
  // The weights the policy ended with on those features (one scalar each, the same in every context).
  const agent = await loadSkillReadingAgent(finalCheckpoint(join(out, run.name)));
  const list = byRow.get(run.row) ?? [];
  list.push({ ...run, ...d, featureWeights: [...agent.parameters.featureWeights] });
  byRow.set(run.row, list);
  lines.push(
    `| ${run.row} | ${run.seed} | ${pct(d.test)} | ${pct(d.best)} (${d.bestStep}) | ${pct(d.last)} | ${d.fell ?? '—'} | ${pct(d.trainStart)} → ${pct(d.trainEnd)} | ${pct(d.trainThird)} / ${num(d.entropyThird)} | ${num(d.entropyStart)} → ${num(d.entropyEnd)} (${num(d.entropyMin)}) | ${num(d.gradMedian, 3)} / ${num(d.gradMax, 3)} (${d.gradSpikes}) | ${num(d.klMax, 3)} | ${num(d.clipMean, 3)} |`,
  );
}
/** A section's title and its table's header row. */
const tableHead = (title, columns) =>
  lines.push('', title, '', `| ${columns.join(' | ')} |`, `|${columns.map(() => '---|').join('')}`);
tableHead('### Per row', [
  'row',
  'seeds',
  'test % mean ± SD (min–max)',
  'runs that fell',
  'entropy last, low-test half vs high-test half',
]);
for (const [row, list] of byRow) {
  const tests = list.map((r) => r.test).filter(Number.isFinite);
  const [low, high] = byTestHalf(list, (r) => r.entropyEnd);
  lines.push(
    `| ${row} | ${list.length} | ${spread(tests)} | ${list.filter((r) => r.fell !== undefined).length} | ${num(low)} vs ${num(high)} |`,
  );
}
// How the test's failures end (issue 38's diagnosis of the low seeds): a low run is not a collapsed one but a
// policy that wanders — its failures use up every step, repeating actions, while its wins are the short tasks.
tableHead('### How the failed test episodes end (without skills)', [
  'row',
  'failed episodes that used every step: mean over seeds',
  'repeated actions in a failed episode: low-test half vs high-test half',
  'won episode length: low-test half vs high-test half',
  'correlation over seeds, repeated actions vs test %',
]);
for (const [row, list] of byRow) {
  const halves = (key) =>
    byTestHalf(list, (r) => r[key])
      .map((x) => num(x, key === 'wonLength' ? 1 : 2))
      .join(' vs ');
  lines.push(
    `| ${row} | ${pct(mean(list.map((r) => r.failedAtCap)))} % | ${halves('failedRepeats')} | ${halves('wonLength')} | ${num(
      correlation(
        list.map((r) => r.failedRepeats),
        list.map((r) => r.test),
      ),
    )} |`,
  );
}
// Issue 38's diagnosis of the stuck runs: one context-free scalar can hold a run in its basin. Each feature
// weight the policy ended with, the low-test half of a row's seeds against the high-test half, and its
// correlation with the test over seeds.
tableHead(
  "### The policy's context-free feature weights at the end (low-test half vs high-test half; correlation with test %)",
  ['row', ...FEATURES],
);
for (const [row, list] of byRow) {
  const cells = FEATURES.map((_, i) => {
    const [low, high] = byTestHalf(list, (r) => r.featureWeights[i]);
    const r = correlation(
      list.map((x) => x.featureWeights[i]),
      list.map((x) => x.test),
    );
    return `${num(low)} vs ${num(high)}; r ${num(r)}`;
  });
  lines.push(`| ${row} | ${cells.join(' | ')} |`);
}
// The table the issue asks for, from the same runs: each row's test mean over seeds with the seed spread (SD)
// and the test's own binomial standard error beside it, Pick2, and each row's paired difference against SKILLC
// (t interval over seeds; hierarchical bootstrap over seeds, then each seed's test tasks).
const reference = byRow.get('skillc');
tableHead('### Rows, paired against SKILLC', [
  'row',
  'seeds',
  'test % (mean ± SD)',
  'test binomial SE',
  'Pick2 test %',
  'Pick2 with-skill at validation %',
  'Pick2 λ / ρ at the end',
  '− SKILLC, t 95 %',
  'hierarchical bootstrap 95 %',
  'verdict',
]);
for (const [row, list] of byRow) {
  const tests = list.map((r) => r.test).filter(Number.isFinite);
  const se = mean(list.map((r) => binomialSe(r.test, Object.keys(r.outcomes).length)));
  let diff = ['—', '—', '—'];
  if (reference && row !== 'skillc') {
    const d = pairedDifference(
      list.map((r) => [r.seed, r.test]),
      reference.map((r) => [r.seed, r.test]),
    );
    const boot = hierarchicalBootstrap(
      list.map((r) => [r.seed, r.outcomes]),
      reference.map((r) => [r.seed, r.outcomes]),
      { seed: 1 },
    );
    diff = [
      `${pts(d.mean)} [${pts(d.lo)}, ${pts(d.hi)}] (${d.n} seeds)`,
      `[${pts(boot.lo)}, ${pts(boot.hi)}]`,
      d.verdict === 'tie' ? 'tie' : d.verdict,
    ];
  }
  // A row that never runs with skills (GRPO) has a curriculum with every type retired from the start: no λ, ρ.
  const withSkills = list.some((r) => Number.isFinite(r.pick2With));
  const lambdas = withSkills ? list.map((r) => r.pick2Lambda).filter(Number.isFinite) : [];
  const rhos = list.map((r) => r.pick2Rho).filter(Number.isFinite);
  lines.push(
    `| ${row} | ${list.length} | ${pct(mean(tests))} ± ${pct(sd(tests))} | ${pct(se)} | ${pct(mean(list.map((r) => r.pick2Test)))} | ${pct(mean(list.map((r) => r.pick2With).filter(Number.isFinite)))} | ${lambdas.length ? `${num(mean(lambdas))} / ${num(mean(rhos), 3)}${list.some((r) => r.pick2Retired) ? ` (retired in ${list.filter((r) => r.pick2Retired).length})` : ''}` : '—'} | ${diff.join(' | ')} |`,
  );
}
// Before and after a change of the shared recipe: each row's seed spread in both passes, and whether it
// shrank (the F interval of SD after / SD before; the two passes' runs are independent samples).
if (args.before) {
  const before = resolve(args.before);
  if (!existsSync(before)) {
    process.stderr.write(`--before: ${before} does not exist; pass the folder of the earlier pass\n`);
    process.exit(2);
  }
  const earlier = new Map();
  for (const run of finishedRuns(before, args.budget, wantedRows)) {
    const summary = JSON.parse(readFileSync(join(before, run.name, 'summary.json'), 'utf8'));
    const list = earlier.get(run.row) ?? [];
    list.push({ seed: run.seed, test: summary.metrics?.test_success_without ?? Number.NaN });
    earlier.set(run.row, list);
  }
  tableHead(`### Seed spread before (${before}) and after (${out})`, [
    'row',
    'seeds before / after',
    'test % before: mean ± SD (min–max)',
    'test % after: mean ± SD (min–max)',
    'SD after / before, F 95 %',
    'spread',
    'mean after − before, paired by seed, t 95 %',
  ]);
  for (const [row, list] of byRow) {
    const old = earlier.get(row);
    if (!old) continue;
    const [a, b] = [
      list.map((r) => r.test).filter(Number.isFinite),
      old.map((r) => r.test).filter(Number.isFinite),
    ];
    const r = sdRatio(a, b);
    // The means compared by seed (same seed: same tasks and initial weights, another recipe).
    const d = pairedDifference(
      list.map((x) => [x.seed, x.test]),
      old.map((x) => [x.seed, x.test]),
    );
    lines.push(
      `| ${row} | ${b.length} / ${a.length} | ${spread(b)} | ${spread(a)} | ${num(r.ratio)} [${num(r.lo)}, ${num(r.hi)}] | ${r.verdict} | ${pts(d.mean)} [${pts(d.lo)}, ${pts(d.hi)}] |`,
    );
  }
}
if (args.curves) {
  lines.push('', '### Validation curves (success without skills, %, at each validation step)', '');
  for (const [row, list] of byRow)
    for (const r of list)
      lines.push(`- ${row} seed ${r.seed}: ${r.curve.map((v) => `${v.step}:${pct(v.rate)}`).join(' ')}`);
}
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
writeFileSync(join(out, `training-noise-${args.budget}.md`), text);
