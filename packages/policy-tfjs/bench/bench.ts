// pnpm bench: acting speed, trainer step time (wasm, cpu, PyTorch CPU) and a short GRPO learning curve.
// Environment: BENCH_MINUTES (learning curve length, default 6), BENCH_EVERY (steps between evaluations,
// default 20), BENCH_REPS (timed trainer steps, default 5).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Skill, Task, TaskAdapter, Trajectory } from '@skillrl/core';
import household from '@skillrl/task-household';
import shop from '@skillrl/task-shop';
import { type BackendChoice, initBackend } from '@skillrl/tensor-ops';
import {
  createSkillReadingAgent,
  createTfjsTrainer,
  type PackedBatch,
  packBatch,
  type SkillReadingAgent,
  vocabularyFromAdapter,
} from '../src/index.js';
import { playEpisode, skillFor } from '../src/testing/play-episode.js';

const SEED = 'policy-tfjs-bench';
const REPS = Number(process.env.BENCH_REPS ?? 5);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 6);
const here = dirname(fileURLToPath(import.meta.url));

function table(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of cells.slice(1)) console.log(line(r));
  console.log();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function acting(name: string, adapter: TaskAdapter, agent: SkillReadingAgent, episodes: number) {
  const skills = (await adapter.skills?.()) ?? [];
  const tasks = await adapter.load({ split: 'train', limit: episodes, seed: 5 });
  let steps = 0;
  let wins = 0;
  const started = performance.now();
  for (const task of tasks) {
    const t = await playEpisode({
      adapter,
      agent,
      task,
      skill: skillFor(skills, task.family),
      seed: `${SEED}/${task.id}`,
    });
    steps += t.steps.length;
    wins += t.reward;
  }
  const s = (performance.now() - started) / 1000;
  return [
    name,
    tasks.length,
    steps,
    (tasks.length / s).toFixed(1),
    (steps / s).toFixed(0),
    (wins / tasks.length).toFixed(3),
  ];
}

/** 64 episodes: 8 household tasks × 8 samples with the skill, advantages centred per task. */
async function trainingBatch(agent: SkillReadingAgent, skills: Skill[]) {
  const tasks = await household.load({ split: 'train', limit: 8, seed: 21 });
  const trajectories: Trajectory[] = [];
  const advantages: number[] = [];
  for (const task of tasks) {
    const group: Trajectory[] = [];
    for (let g = 0; g < 8; g++) {
      group.push(
        await playEpisode({
          adapter: household,
          agent,
          task,
          skill: skillFor(skills, task.family),
          seed: `${SEED}/batch/${task.id}/${g}`,
        }),
      );
    }
    const mean = group.reduce((a, t) => a + t.reward, 0) / group.length;
    for (const t of group) {
      trajectories.push(t);
      advantages.push(t.reward - mean);
    }
  }
  return { trajectories, advantages };
}

function writeTorchBatch(
  dir: string,
  agent: SkillReadingAgent,
  trajectories: Trajectory[],
  advantages: number[],
) {
  const rows = trajectories.map((t) => t.steps.map((s) => s.info?.policy as never));
  const p: PackedBatch = packBatch(rows, { vocabularySize: agent.vocabulary.size });
  const mask = new Float32Array(p.B * p.T);
  const adv = new Float32Array(p.B * p.T);
  const old = new Float32Array(p.B * p.T);
  trajectories.forEach((t, b) => {
    t.steps.forEach((s, i) => {
      mask[b * p.T + i] = 1;
      adv[b * p.T + i] = advantages[b] as number;
      old[b * p.T + i] = s.logProb as number;
    });
  });
  const R = p.B * p.T;
  const d = agent.config.dim;
  const arrays: Record<string, [Int32Array | Float32Array, number[]]> = {
    bags: [p.bags, [p.U, p.V]],
    candIdx: [p.candIdx, [R * p.C]],
    goalIdx: [p.goalIdx, [R]],
    obsIdx: [p.obsIdx, [R]],
    histIdx: [p.histIdx, [R]],
    feats: [p.feats, [R * p.C, p.feats.length / (R * p.C)]],
    candMask: [p.candMask, [R, p.C]],
    chosen: [p.chosen, [R, p.C]],
    pairIdx: [p.pairIdx, [R * p.C]],
    pairDecision: [p.pairDecision, [p.P]],
    sims: [p.sims, [p.P, p.S]],
    done: [p.done, [R, p.S]],
    rank: [p.rank, [R, p.S]],
    sign: [p.sign, [R, p.S]],
    clauseMask: [p.clauseMask, [R, p.S]],
    invTemp: [p.invTemp, [R]],
    mask: [mask, [p.B, p.T]],
    advantages: [adv, [p.B, p.T]],
    old: [old, [p.B, p.T]],
    embedding: [agent.parameters.embedding, [agent.vocabulary.size, d]],
    query: [agent.parameters.query, [3 * d, d]],
    actionBias: [agent.parameters.actionBias, [d]],
    featureWeights: [agent.parameters.featureWeights, [agent.parameters.featureWeights.length]],
    prior: [agent.parameters.prior, [4]],
  };
  const manifest: Record<string, unknown> = { dim: d, R, B: p.B, T: p.T, C: p.C, S: p.S, P: p.P, arrays: {} };
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const [name, [values, shape]] of Object.entries(arrays)) {
    (manifest.arrays as Record<string, unknown>)[name] = {
      dtype: values instanceof Int32Array ? 'int32' : 'float32',
      shape,
      offset,
      length: values.length,
    };
    const buf = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
    chunks.push(Buffer.from(buf));
    offset += buf.length;
  }
  writeFileSync(join(dir, 'arrays.bin'), Buffer.concat(chunks));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

function torchStep(dir: string): string[] {
  const python = '/usr/bin/python3';
  if (!existsSync(python)) return ['pytorch-cpu', 'skipped: /usr/bin/python3 absent', '', ''];
  // The bench runs bundled from node_modules/.cache/skillrl-bench; the script stays in bench/.
  const script = [join(here, 'torch_step.py'), join(here, '../../../bench/torch_step.py')].find((f) =>
    existsSync(f),
  );
  if (!script) return ['pytorch-cpu', 'skipped: bench/torch_step.py not found', '', ''];
  const run = spawnSync(python, [script, dir, String(REPS)], { encoding: 'utf8' });
  if (run.status !== 0) {
    const why = /No module named '?torch'?/.test(run.stderr)
      ? 'torch not installed (apt-get install python3-torch)'
      : (run.stderr.trim().split('\n').at(-1) ?? 'failed');
    return ['pytorch-cpu', `skipped: ${why}`, '', ''];
  }
  const out = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as {
    median_ms: number;
    min_ms: number;
    torch: string;
  };
  return [
    `pytorch-cpu (torch ${out.torch}, 1 thread)`,
    '64',
    out.median_ms.toFixed(1),
    out.min_ms.toFixed(1),
  ];
}

async function trainerSteps(agent: SkillReadingAgent, skills: Skill[]) {
  const { trajectories, advantages } = await trainingBatch(agent, skills);
  const rows: string[][] = [];
  for (const backend of ['wasm', 'cpu'] as BackendChoice[]) {
    await initBackend({ prefer: backend, fallback: false });
    const learner = createSkillReadingAgent({ vocabulary: agent.vocabulary, parameters: agent.parameters });
    const trainer = createTfjsTrainer(learner, { kl: { kind: 'k3', coef: 0.01 } });
    await trainer.update({ trajectories, advantages });
    const timings: Record<'step_ms' | 'grad_ms' | 'pack_ms', number[]> = {
      step_ms: [],
      grad_ms: [],
      pack_ms: [],
    };
    for (let i = 0; i < REPS; i++) {
      const m = await trainer.update({ trajectories, advantages });
      for (const key of ['step_ms', 'grad_ms', 'pack_ms'] as const) timings[key].push(m[key] as number);
    }
    trainer.dispose();
    const parts = [
      ['whole update()', timings.step_ms],
      ['policyGradientStep only', timings.grad_ms],
      ['packBatch only (JS)', timings.pack_ms],
    ] as const;
    for (const [what, xs] of parts) {
      rows.push([`tfjs-${backend}: ${what}`, '64', median([...xs]).toFixed(1), Math.min(...xs).toFixed(1)]);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'policy-tfjs-bench-'));
  try {
    writeTorchBatch(dir, agent, trajectories, advantages);
    rows.push(torchStep(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const decisions = trajectories.reduce((a, t) => a + t.steps.length, 0);
  console.log(
    `Trainer step on one batch of 64 household episodes (${decisions} decisions; PPO clip + k3 KL, Adam), ${REPS} timed steps after a warm-up:`,
  );
  table(['implementation', 'episodes', 'median ms', 'min ms'], rows);
}

async function successRate(
  agent: SkillReadingAgent,
  tasks: Task[],
  skills: Skill[],
  withSkill: boolean,
  tag: string,
) {
  let wins = 0;
  for (const task of tasks) {
    const skill = withSkill ? skillFor(skills, task.family) : undefined;
    wins += (
      await playEpisode({ adapter: household, agent, task, skill, seed: `${SEED}/eval/${tag}/${task.id}` })
    ).reward;
  }
  return wins / tasks.length;
}

async function learningCurve(agent: SkillReadingAgent, skills: Skill[]) {
  await initBackend();
  const trainer = createTfjsTrainer(agent, {
    lr: 0.05,
    kl: { kind: 'k3', coef: 0.001 },
    aggregation: 'seq-mean-token-mean',
  });
  const train = await household.load({ split: 'train', limit: 600, seed: 31 });
  const evalTasks = await household.load({ split: 'valid_seen', limit: 120, seed: 32 });
  const every = Number(process.env.BENCH_EVERY ?? 20);
  const rows: (string | number)[][] = [];
  const started = performance.now();
  const evaluate = async (step: number, trainSuccess: string) => {
    const [w, wo] = [
      await successRate(agent, evalTasks, skills, true, String(step)),
      await successRate(agent, evalTasks, skills, false, String(step)),
    ];
    rows.push([
      step,
      ((performance.now() - started) / 60_000).toFixed(1),
      trainSuccess,
      w.toFixed(3),
      wo.toFixed(3),
    ]);
    console.log(`  step ${step}: eval with ${w.toFixed(3)}, without ${wo.toFixed(3)}`);
  };
  await evaluate(0, '-');
  let step = 0;
  let recent: number[] = [];
  while ((performance.now() - started) / 60_000 < MINUTES) {
    const trajectories: Trajectory[] = [];
    const advantages: number[] = [];
    for (let k = 0; k < 8; k++) {
      const task = train[(step * 8 + k) % train.length] as Task;
      const group: Trajectory[] = [];
      for (let g = 0; g < 8; g++) {
        group.push(
          await playEpisode({
            adapter: household,
            agent,
            task,
            skill: skillFor(skills, task.family),
            seed: `${SEED}/grpo/${step}/${k}/${g}`,
          }),
        );
      }
      const mean = group.reduce((a, t) => a + t.reward, 0) / group.length;
      for (const t of group) {
        trajectories.push(t);
        advantages.push(t.reward - mean);
      }
    }
    await trainer.update({ trajectories, advantages });
    recent.push(trajectories.reduce((a, t) => a + t.reward, 0) / trajectories.length);
    step += 1;
    if (step % every === 0) {
      await evaluate(step, (recent.reduce((a, b) => a + b, 0) / recent.length).toFixed(3));
      recent = [];
    }
  }
  trainer.dispose();
  console.log(
    `\nGRPO learning curve on household (skill always present while training; 8 tasks × 8 samples a step, lr 0.05, k3 KL 0.001, seq-mean-token-mean; ${MINUTES} min budget). Evaluation: 120 valid_seen tasks (20 per type), one sampled episode each, with and without the skill:`,
  );
  table(
    ['step', 'minutes', 'train success since last row (z=1)', 'eval with skill', 'eval without skill'],
    rows,
  );
}

async function main() {
  const info = await initBackend();
  console.log(`policy-tfjs bench (seed ${SEED}); default backend ${info.backend}; Node ${process.version}\n`);
  const vocabulary = await vocabularyFromAdapter(household, { seed: SEED });
  const agent = createSkillReadingAgent({ vocabulary, seed: 1 });
  const skills = await household.skills();
  const shopVocabulary = await vocabularyFromAdapter(shop, { seed: SEED, episodes: 30 });
  const shopAgent = createSkillReadingAgent({ vocabulary: shopVocabulary, seed: 1 });
  console.log('Acting (untrained agent, skill present, sampled; typed-array scorer, no tensors):');
  table(
    ['environment', 'episodes', 'steps', 'episodes/s', 'steps/s', 'mean reward'],
    [await acting('household', household, agent, 120), await acting('shop', shop, shopAgent, 60)],
  );
  await trainerSteps(agent, skills);
  await learningCurve(agent, skills);
}

await main();
