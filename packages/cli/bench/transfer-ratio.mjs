// Transfer ratio of a run's policy at its start and at its end: how much one gradient step on a with-skill
// success moves the skill-free log-probability of that episode's actions, per how much one step on a
// skill-free success moves its own. 1 means a with-skill success teaches the skill-free path as much as a
// skill-free one; near 0 means with-skill credit stays with the skill (SKILLC's "internalization blind spot").
//
//   node bench/transfer-ratio.mjs --run <run dir> --episodes <run dir whose stored successes to use>
//        [--seed <run seed>] [--max 48] [--out file.json]
//
// For an episode τ with actions a_1..a_T, f_c(θ) = mean_t log π_θ(a_t | s_t, c) under condition c (c = 1: with
// the skill it was played with; c = 0: the same actions replayed without a skill). One plain gradient step
// θ += η ∇f_c moves f_0 by η⟨∇f_0, ∇f_c⟩ to first order, so
//     ratio = mean over with-skill successes of ⟨∇f_0, ∇f_1⟩ / mean over skill-free successes of |∇f_0|²,
// and, on the with-skill successes alone, the share of the step's own rise that reaches the skill-free path,
//     share = mean ⟨∇f_0, ∇f_1⟩ / mean |∇f_1|².
// η cancels. Gradients are of the parameters the run's trainer trains (the skill reader's strengths are
// frozen, as the tfjs trainer's default). Start: the untrained agent a run with this seed creates; end: the
// run's last checkpoint. Episodes: successful training rollouts stored in a run directory (GRPO stores no
// with-skill rollout, so its row is scored on the SKILLC run's episodes of the same seed).
import { readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createRng, readRunStream } from '@skillrl/core';
import { createTfjsTrainer, createTfPolicy, loadSkillReadingAgent, packBatch } from '@skillrl/policy-tfjs';
import household from '@skillrl/task-household';
import { skillFreeTrajectory, startingAgent } from './skill-free-replay.mjs';

// tfjs is policy-tfjs's peer dependency, not the orchestrator's: load the copy policy-tfjs itself uses (one
// engine, one backend) for the gradients.
const tf = await import(
  pathToFileURL(createRequire(import.meta.resolve('@skillrl/policy-tfjs')).resolve('@tensorflow/tfjs')).href
);

/** The run's last agent checkpoint (checkpoints/state-<step>/agent). */
export function finalCheckpoint(runDir) {
  const states = readdirSync(join(runDir, 'checkpoints'))
    .filter((n) => /^state-\d+$/.test(n))
    .sort();
  if (states.length === 0) throw new Error(`${runDir}: no checkpoints/state-* to load`);
  return join(runDir, 'checkpoints', states.at(-1), 'agent');
}

const taskCache = new Map();
/** A household task by id (`household/<split>/<seed>/<index>`), generated again. */
function taskById(id) {
  const m = /^household\/([a-z_]+)\/(\d+)\/(\d+)$/.exec(id);
  if (!m) throw new Error(`task id "${id}" is not a generated household task`);
  const key = `${m[1]}/${m[2]}`;
  let tasks = taskCache.get(key);
  const index = Number(m[3]);
  if (!tasks || tasks.length <= index) {
    tasks = household.load({ split: m[1], seed: Number(m[2]), limit: Math.max(index + 1, 512) });
    taskCache.set(key, tasks);
  }
  return tasks[index];
}

/** Successful training rollouts of a run directory (`s<step>/…` ids), by condition, sampled by a seeded stream. */
function storedSuccesses(runDir, max, seed) {
  const byCondition = { 0: [], 1: [] };
  for (const t of readRunStream(runDir, 'rollouts')) {
    if (!/^s\d+\//.test(t.id) || !t.verdict?.passed || t.error) continue;
    byCondition[t.condition === 1 ? 1 : 0].push(t);
  }
  const rng = createRng(`transfer/${seed}`);
  return {
    found: { 0: byCondition[0].length, 1: byCondition[1].length },
    with: rng.shuffle(byCondition[1]).slice(0, max),
    without: rng.shuffle(byCondition[0]).slice(0, max),
  };
}

// Steps store a compact record (policy-tfjs's StoredDecisionRecord); the agent decodes it for the network.
const recordsOf = (agent, t) => t.steps.map((s) => agent.decisionRecord(s.info?.policy) ?? null);

/** ∇ of mean_t log π(a_t) over one episode's recorded decisions, as one flat Float32Array per variable. */
function gradientOf(policy, variables, agent, trajectory) {
  const records = recordsOf(agent, trajectory);
  const steps = records.filter(Boolean).length;
  if (steps === 0) return undefined;
  const packed = packBatch([records], {
    vocabularySize: agent.vocabulary.size,
    memories: [agent.episodeMemories(trajectory.steps.map((s) => s.action))],
  });
  const mask = tf.tensor2d([Array.from({ length: packed.T }, (_, t) => (records[t] ? 1 : 0))]);
  const { grads, value } = tf.variableGrads(() => {
    const { logProbs, entropy } = policy.logProbs(packed);
    entropy.dispose();
    return tf.div(tf.sum(tf.mul(logProbs, mask)), steps);
  }, variables);
  const flat = variables.map((v) => grads[v.name].dataSync().slice());
  for (const g of Object.values(grads)) g.dispose();
  value.dispose();
  mask.dispose();
  return flat;
}

const dot = (a, b) => {
  let s = 0;
  for (let v = 0; v < a.length; v++) {
    const x = a[v];
    const y = b[v];
    for (let i = 0; i < x.length; i++) s += x[i] * y[i];
  }
  return s;
};

/** The ratio for one agent on prepared episodes: [{ own, free }] with-skill and skill-free. */
function ratioFor(agent, withSkill, withoutSkill) {
  const policy = createTfPolicy(agent.parameters, agent.config, agent.vocabulary.size, { name: 'transfer' });
  const variables = policy.trainableVariables.filter((v) => v !== policy.variables.prior);
  // Per episode: [⟨∇f₀, ∇f_c⟩, |∇f_c|²] (how far the step moves f₀, and its own condition's f_c).
  const moves = (pairs) =>
    pairs
      .map(({ own, free }) => {
        const g0 = gradientOf(policy, variables, agent, free);
        const g1 = own === free ? g0 : gradientOf(policy, variables, agent, own);
        return g0 && g1 ? [dot(g0, g1), dot(g1, g1)] : undefined;
      })
      .filter((x) => x !== undefined);
  const plus = moves(withSkill);
  const minus = moves(withoutSkill);
  policy.dispose();
  const avg = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  const withSkillMove = avg(plus.map((m) => m[0]));
  return {
    withSkillMove,
    skillFreeMove: avg(minus.map((m) => m[0])),
    ratio: withSkillMove / avg(minus.map((m) => m[0])),
    // Of the with-skill log-prob a step raises on its own episode, the share the skill-free path gets.
    sameEpisodeShare: withSkillMove / avg(plus.map((m) => m[1])),
    withSkillEpisodes: plus.length,
    skillFreeEpisodes: minus.length,
  };
}

/**
 * The transfer ratio at the start and the end of `runDir` (run seed `seed`), on up to `max` successful
 * with-skill and skill-free training episodes stored in `episodesDir` (default: the run itself).
 */
export async function transferRatio({ runDir, episodesDir = runDir, seed, max = 48 }) {
  const started = Date.now();
  const start = await startingAgent(household, seed);
  const end = await loadSkillReadingAgent(finalCheckpoint(runDir));
  // The backend, as the trainer picks it; and a check that `start` is the run's untrained agent: the
  // log-probs it gives the first step's rollouts are those they were sampled with.
  const trainer = createTfjsTrainer(start);
  const first = [...readRunStream(episodesDir, 'rollouts')].filter((t) => /^s1\//.test(t.id)).slice(0, 8);
  const recomputed = await trainer.logProbs(first);
  let startCheck = 0;
  first.forEach((t, b) => {
    t.steps.forEach((s, i) => {
      if (s.info?.policy && Number.isFinite(s.logProb))
        startCheck = Math.max(startCheck, Math.abs(recomputed[b][i] - s.logProb));
    });
  });
  trainer.dispose();

  const stored = storedSuccesses(episodesDir, max, seed);
  // Each episode's actions replayed without a skill: the decisions f_0 is taken over.
  const prepare = async (list) => {
    const out = [];
    for (const t of list) {
      const task = taskById(t.taskId);
      const free = await skillFreeTrajectory(
        household,
        start,
        task,
        t.steps.map((s) => s.action),
      );
      out.push({ own: t.condition === 1 ? t : free, free });
    }
    return out;
  };
  const withSkill = await prepare(stored.with);
  const withoutSkill = await prepare(stored.without);
  return {
    runDir,
    episodesDir,
    seed,
    found: stored.found,
    startCheck,
    start: ratioFor(start, withSkill, withoutSkill),
    end: ratioFor(end, withSkill, withoutSkill),
    seconds: (Date.now() - started) / 1000,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      run: { type: 'string' },
      episodes: { type: 'string' },
      seed: { type: 'string' },
      max: { type: 'string', default: '48' },
      out: { type: 'string' },
    },
  });
  if (!values.run) throw new Error('--run: expected a run directory');
  const seed = values.seed ? Number(values.seed) : undefined;
  const result = await transferRatio({
    runDir: values.run,
    ...(values.episodes && { episodesDir: values.episodes }),
    seed:
      seed ??
      JSON.parse((await import('node:fs')).readFileSync(join(values.run, 'config.json'), 'utf8')).seed,
    max: Number(values.max),
  });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
}
