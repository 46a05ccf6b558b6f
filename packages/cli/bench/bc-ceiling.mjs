// A ceiling for the SKILLC household table, not a method: the policy class of every row (the skill-reading
// agent of @skillrl/policy-tfjs, same config, same seeded initial weights as a run with this seed) cloned on
// a search expert that does not peek (search-expert.mjs), skill-free, by supervised learning. What the clone
// scores without skills on the run's held-out test tasks says how far this network can get on this protocol
// when credit is not the problem.
//
//   node bench/bc-ceiling.mjs --seed 1 [--pool 512] [--test 120] [--epochs 30] [--lr 0.03] [--out file.json]
//
// The pool is the run's training pool (train split, load seed = run seed), the test split the run's own
// (valid_unseen, load seed = run seed + 2). Cloning: Adam through the in-process tfjs trainer, one step per
// batch of 32 expert episodes (advantage 1 on every decision and no behaviour log-probs, so the clipped
// surrogate's gradient is exactly −∇ log π of the expert's actions, averaged per episode then over the
// batch), shuffled per epoch by a seeded stream. Scored by one sampled and one greedy episode per test task.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRng } from '@skillrl/core';
import { createTfjsTrainer } from '@skillrl/policy-tfjs';
import { runEpisode } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { playSearchExpert } from './search-expert.mjs';
import { skillFreeTrajectory, startingAgent } from './skill-free-replay.mjs';

const BATCH = 32;

async function skillFreeSuccess(agent, tasks, seed, label) {
  const byFamily = {};
  let passed = 0;
  for (const task of tasks) {
    const t = await runEpisode({
      agent,
      env: await household.createEnvironment(task),
      task,
      verifier: household.verifier(task),
      seed: createRng(seed).seedFor(`${label}/${task.id}`),
    });
    byFamily[task.family] ??= { passed: 0, episodes: 0 };
    const f = byFamily[task.family];
    f.episodes++;
    if (t.verdict.passed) {
      f.passed++;
      passed++;
    }
  }
  // As the run's test metric: the mean over families of each family's rate.
  const rates = Object.values(byFamily).map((f) => f.passed / f.episodes);
  return {
    success: rates.reduce((a, b) => a + b, 0) / (rates.length || 1),
    pooled: passed / tasks.length,
    families: Object.fromEntries(Object.entries(byFamily).map(([k, f]) => [k, f.passed / f.episodes])),
  };
}

/** Clones the search expert into a fresh agent of run seed `seed` and scores it skill-free. */
export async function bcCeiling({ seed, pool = 512, test = 120, epochs = 30, lr = 0.03 }) {
  const started = Date.now();
  const agent = await startingAgent(household, seed);
  const train = household.load({ split: 'train', limit: pool, seed });
  const testTasks = household.load({ split: 'valid_unseen', limit: test, seed: seed + 2 });

  const data = [];
  let expertWon = 0;
  for (const task of train) {
    const { actions, won } = await playSearchExpert(household, task);
    if (!won) continue;
    expertWon++;
    data.push(await skillFreeTrajectory(household, agent, task, actions, `bc/${task.id}`));
  }
  let expertTest = 0;
  for (const task of testTasks) if ((await playSearchExpert(household, task)).won) expertTest++;
  const decisions = data.reduce((a, t) => a + t.steps.filter((s) => s.info?.policy).length, 0);
  const before = await skillFreeSuccess(agent, testTasks, seed, 'bc-before');

  const trainer = createTfjsTrainer(agent, { lr, aggregation: 'seq-mean-token-mean' });
  const rng = createRng(`bc-ceiling/${seed}`);
  const losses = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const order = rng.shuffle(data.map((_, i) => i));
    let loss = 0;
    let batches = 0;
    for (let s = 0; s < order.length; s += BATCH) {
      const trajectories = order.slice(s, s + BATCH).map((i) => data[i]);
      const m = await trainer.update({ trajectories, advantages: trajectories.map(() => 1) });
      loss += Number(m.pg_loss ?? m.loss ?? 0);
      batches++;
    }
    losses.push(loss / Math.max(1, batches));
  }
  // The clone's skill-free log-likelihood of the expert's actions (per decision, mean over episodes).
  const logProbs = await trainer.logProbs(data);
  const nll =
    -logProbs.reduce(
      (a, row, b) =>
        a +
        row.filter((_, t) => data[b].steps[t].info?.policy).reduce((x, y) => x + y, 0) / decisionsOf(data[b]),
      0,
    ) / data.length;
  trainer.dispose();
  const sampled = await skillFreeSuccess(agent, testTasks, seed, 'bc-sampled');
  const greedy = await skillFreeSuccess(agent.withSampling({ greedy: true }), testTasks, seed, 'bc-greedy');
  return {
    seed,
    settings: { pool, test, epochs, lr, batch: BATCH },
    expert: { train: expertWon / train.length, test: expertTest / testTasks.length },
    episodes: data.length,
    decisions,
    nll,
    losses,
    before,
    sampled,
    greedy,
    seconds: (Date.now() - started) / 1000,
  };
}

const decisionsOf = (t) => Math.max(1, t.steps.filter((s) => s.info?.policy).length);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      pool: { type: 'string', default: '512' },
      test: { type: 'string', default: '120' },
      epochs: { type: 'string', default: '30' },
      lr: { type: 'string', default: '0.03' },
      out: { type: 'string' },
    },
  });
  const result = await bcCeiling({
    seed: Number(values.seed),
    pool: Number(values.pool),
    test: Number(values.test),
    epochs: Number(values.epochs),
    lr: Number(values.lr),
  });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
}
