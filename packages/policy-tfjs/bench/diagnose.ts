// pnpm --filter @skillrl/policy-tfjs diagnose [-- <trained agent dir>]: can this learner internalize a skill?
//
// 1. Behaviour cloning (capacity, not credit): the skill-free path is trained by plain supervised learning
//    (Adam on −log π(a | no skill)) on (a) the successful episodes the untrained agent plays *with* its skill,
//    (b) the household expert's plans. If skill-free success rises, the network can represent what the skill
//    makes it do, and what RL lacks is credit, not capacity.
// 2. Saturation (given a trained agent's checkpoint folder, e.g. a run's checkpoints/state-*/agent): on its
//    successful with-skill episodes, how often the chosen action was near-certain with the skill
//    (π_with > 0.8) and unlikely without it (π_without < 0.2). At those decisions a with-skill success
//    carries almost no policy gradient to the skill-free path (∂ log π_with(a) / ∂ s(a) = 1 − π_with(a)).
// Seeded; prints two tables. Environment: DIAGNOSE_EPOCHS (default 30), DIAGNOSE_LR (default 0.03).
import type { Skill, Task, Trajectory } from '@skillrl/core';
import { createRng } from '@skillrl/core';
import household, { planActions } from '@skillrl/task-household';
import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import {
  createSkillReadingAgent,
  createTfPolicy,
  type DecisionRecord,
  loadSkillReadingAgent,
  packBatch,
  type SkillReadingAgent,
  vocabularyFromAdapter,
} from '../src/index.js';
import { playEpisode } from '../src/testing/play-episode.js';
import { printTable } from './print-table.js';

const EPOCHS = Number(process.env.DIAGNOSE_EPOCHS ?? 30);
const LR = Number(process.env.DIAGNOSE_LR ?? 0.03);
const skills = await household.skills();
const general = skills.find((s) => s.families?.length === household.families.length);

/** The with-skill context the internalize loop builds: the general section plus the family's own. */
function contextSkill(family: string): Skill | undefined {
  const own = skills
    .filter((s) => s !== general && s.families?.includes(family))
    .sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0))[0];
  if (!own) return general;
  return general ? { ...own, body: `${general.body.trim()}\n\n${own.body.trim()}\n` } : own;
}

async function skillFreeSuccess(agent: SkillReadingAgent, tasks: readonly Task[]): Promise<number> {
  let passed = 0;
  for (const task of tasks) {
    const t = await playEpisode({ adapter: household, agent, task, seed: `diagnose-eval/${task.id}` });
    if (t.verdict.passed) passed++;
  }
  return passed / tasks.length;
}

/** The decisions of an action sequence as the agent would see them without a skill, chosen = the action. */
function skillFreeRecords(agent: SkillReadingAgent, task: Task, actions: readonly string[]) {
  const env = household.createEnvironment(task);
  let observation = env.reset();
  const history: Trajectory['steps'] = [];
  const records: (DecisionRecord | null)[] = [];
  const memories: number[][] = [];
  for (const [index, action] of actions.entries()) {
    const d = agent.distribution({
      task,
      condition: 0,
      observation,
      history,
      stepIndex: index,
      admissibleActions: env.admissibleActions(),
    });
    const chosen = d.candidates.indexOf(action);
    if (chosen >= 0) d.record.chosen = chosen;
    records.push(chosen >= 0 ? d.record : null);
    memories.push(d.memory);
    const r = env.step(action);
    history.push({ index, observation, action, reward: r.reward, done: r.done });
    observation = r.observation;
    if (r.done) break;
  }
  return { records, memories };
}

async function behaviourClone(
  agent: SkillReadingAgent,
  rows: { records: (DecisionRecord | null)[]; memories: number[][] }[],
): Promise<number> {
  const policy = createTfPolicy(agent.parameters, agent.config, agent.vocabulary.size, { name: 'bc' });
  const optimizer = tf.train.adam(LR);
  const rng = createRng('diagnose-bc');
  const trainable = policy.trainableVariables.filter((v) => v !== policy.variables.prior);
  let last = 0;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const order = rng.shuffle(rows.map((_, i) => i));
    let total = 0;
    let batches = 0;
    for (let s = 0; s < order.length; s += 32) {
      const chunk = order.slice(s, s + 32).map((i) => rows[i] as (typeof rows)[number]);
      const packed = packBatch(
        chunk.map((r) => r.records),
        { vocabularySize: agent.vocabulary.size, memories: chunk.map((r) => r.memories) },
      );
      const mask = tf.tensor2d(
        chunk.map((r) => Array.from({ length: packed.T }, (_, t) => (r.records[t] ? 1 : 0))),
      );
      const cost = optimizer.minimize(
        () => {
          const { logProbs, entropy } = policy.logProbs(packed);
          entropy.dispose();
          return tf.neg(tf.div(tf.sum(tf.mul(logProbs, mask)), tf.sum(mask))) as tf.Scalar;
        },
        true,
        trainable,
      ) as tf.Scalar;
      total += (await cost.data())[0] as number;
      batches++;
      cost.dispose();
      mask.dispose();
    }
    last = total / batches;
  }
  agent.setParameters(policy.read());
  policy.dispose();
  optimizer.dispose();
  return last;
}

await initBackend({ prefer: 'wasm' });
const vocabulary = await vocabularyFromAdapter(household);
const train = await household.load({ split: 'train', limit: 512, seed: 1 });
const unseen = await household.load({ split: 'valid_unseen', limit: 120, seed: 3 });

const rows: (string | number)[][] = [];
for (const source of ['with-skill successes of the untrained agent', 'expert plans'] as const) {
  const agent = createSkillReadingAgent({ vocabulary, seed: 1 });
  const before = await skillFreeSuccess(agent, unseen);
  const data: ReturnType<typeof skillFreeRecords>[] = [];
  let played = 0;
  for (const task of train) {
    if (source === 'expert plans') {
      const env = household.createEnvironment(task);
      env.reset();
      data.push(skillFreeRecords(agent, task, planActions(env)));
      played++;
      continue;
    }
    for (let k = 0; k < 4; k++) {
      const skill = contextSkill(task.family);
      const t = await playEpisode({
        adapter: household,
        agent,
        task,
        ...(skill && { skill }),
        seed: `diagnose/${k}/${task.id}`,
      });
      played++;
      if (t.verdict.passed)
        data.push(
          skillFreeRecords(
            agent,
            task,
            t.steps.map((s) => s.action),
          ),
        );
    }
  }
  const nll = await behaviourClone(agent, data);
  const after = await skillFreeSuccess(agent, unseen);
  rows.push([
    source,
    `${data.length} of ${played}`,
    data.reduce((a, r) => a + r.records.length, 0),
    nll.toFixed(3),
    (100 * before).toFixed(1),
    (100 * after).toFixed(1),
  ]);
}
console.log(
  `Behaviour cloning into the skill-free path (${EPOCHS} epochs, Adam ${LR}; 512 train tasks, seed 1; success of one sampled skill-free episode on each of 120 valid_unseen tasks, seed 3):\n`,
);
printTable(
  ['cloned from', 'episodes', 'decisions', 'final NLL', 'skill-free before %', 'skill-free after %'],
  rows,
);

const trained = process.argv[2];
if (trained) {
  const agent = await loadSkillReadingAgent(trained);
  const byFamily = new Map<
    string,
    { won: number; n: number; decisions: number; saturated: number; blind: number }
  >();
  for (const task of unseen) {
    const skill = contextSkill(task.family);
    const env = household.createEnvironment(task);
    let observation = env.reset();
    const history: Trajectory['steps'] = [];
    const rng = createRng(`diagnose-saturation/${task.id}`);
    const probs: [number, number][] = [];
    for (let i = 0; i < env.maxSteps; i++) {
      const admissibleActions = env.admissibleActions();
      const base = { task, observation, history, stepIndex: i, admissibleActions };
      const w = agent.distribution({ ...base, condition: 1, ...(skill && { skill }) });
      const o = agent.distribution({ ...base, condition: 0 });
      let u = rng.float();
      let c = w.candidates.length - 1;
      for (let k = 0; k < w.candidates.length; k++) {
        u -= Math.exp(w.logProbs[k] as number);
        if (u < 0) {
          c = k;
          break;
        }
      }
      const action = w.candidates[c] as string;
      probs.push([
        Math.exp(w.logProbs[c] as number),
        Math.exp(o.logProbs[o.candidates.indexOf(action)] as number),
      ]);
      const r = env.step(action);
      history.push({ index: i, observation, action, reward: r.reward, done: r.done });
      observation = r.observation;
      if (r.done) break;
    }
    const f = byFamily.get(task.family) ?? { won: 0, n: 0, decisions: 0, saturated: 0, blind: 0 };
    f.n++;
    if (history.at(-1)?.reward === 1) {
      f.won++;
      for (const [pw, po] of probs) {
        f.decisions++;
        if (pw > 0.8) f.saturated++;
        if (pw > 0.8 && po < 0.2) f.blind++;
      }
    }
    byFamily.set(task.family, f);
  }
  console.log(`Saturation of ${trained} on its with-skill episodes (120 valid_unseen tasks, seed 3):\n`);
  printTable(
    [
      'family',
      'with-skill successes',
      'decisions in them',
      'π_with > 0.8 %',
      'π_with > 0.8 and π_without < 0.2 %',
    ],
    [...byFamily.entries()].map(([family, f]) => [
      family,
      `${f.won} of ${f.n}`,
      f.decisions,
      f.decisions ? (100 * (f.saturated / f.decisions)).toFixed(1) : '–',
      f.decisions ? (100 * (f.blind / f.decisions)).toFixed(1) : '–',
    ]),
  );
}
