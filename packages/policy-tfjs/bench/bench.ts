// pnpm bench: acting speed (decisions per second, one decision a call and in rounds), trainer update time
// (wasm, cpu; hand-written gradients and tfjs autodiff; PyTorch CPU on the same network and batch) and a
// short GRPO learning curve.
// Environment: BENCH_MINUTES (learning curve length, default 6), BENCH_EVERY (steps between evaluations,
// default 20), BENCH_REPS (timed trainer updates, default 5), BENCH_ACTING_EPISODES (household episodes of
// the acting table, default 240), BENCH_ACTING_REPS (timed runs of each acting mode, default 3),
// BENCH_ONLY=acting (the acting table alone), PYTHON (an interpreter with torch and numpy; default
// /usr/bin/python3 when it has them).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Agent, AgentContext, Skill, Task, TaskAdapter, Trajectory } from '@skillrl/core';
import household from '@skillrl/task-household';
import shop from '@skillrl/task-shop';
import { type BackendChoice, initBackend } from '@skillrl/tensor-ops';
import {
  type AgentParameters,
  createSkillReadingAgent,
  createTfjsTrainer,
  type DecisionRecord,
  FEATURE_COUNT,
  type SkillReadingAgent,
  type TfjsTrainerOptions,
  type Vocabulary,
  vocabularyFromAdapter,
} from '../src/index.js';
import { CONTEXT_BLOCKS, hiddenScales } from '../src/model/agent-config.js';
import { packDecisionBatch } from '../src/model/decision-batch.js';
import { playEpisode, playEpisodesTogether, skillFor } from '../src/testing/play-episode.js';
import { printTable } from './print-table.js';
import { groupedEpisodes, trainingBatch } from './training-batch.js';

const SEED = 'policy-tfjs-bench';
const REPS = Number(process.env.BENCH_REPS ?? 5);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 6);
/** Household episodes of the acting table (shop: half as many); default 240. */
const ACTING_EPISODES = Number(process.env.BENCH_ACTING_EPISODES ?? 240);
/** Timed runs of each acting mode (the fastest is kept); default 3. */
const ACTING_REPS = Number(process.env.BENCH_ACTING_REPS ?? 3);
/** `acting`: only the acting table. */
const ONLY = process.env.BENCH_ONLY;
/** Episodes in lockstep: the paper protocol's concurrency. */
const ROUND = 8;
const here = dirname(fileURLToPath(import.meta.url));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Process CPU time (user + system) in milliseconds: on a shared machine steadier than the wall clock. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Counts the wall time of the agent's own calls (act or actMany), beside the episodes' totals. */
function timedAgent(agent: SkillReadingAgent) {
  let ms = 0;
  const timed = {
    act: async (context: AgentContext) => {
      const started = performance.now();
      const action = await agent.act(context);
      ms += performance.now() - started;
      return action;
    },
    actMany: async (contexts: readonly AgentContext[]) => {
      const started = performance.now();
      const actions = await agent.actMany(contexts);
      ms += performance.now() - started;
      return actions;
    },
  };
  return { timed, policyMs: () => ms };
}

/**
 * Decisions per second of the untrained agent (skill present, sampled) on the same episodes, played one at a
 * time with `act` per decision, then `ROUND` at a time in lockstep with one `actMany` per round (how
 * rollout's collector runs the episodes in flight). Each mode runs `ACTING_REPS` times, alternating, with a
 * fresh agent each time; the table keeps each mode's fastest run: decisions per second of wall clock and of
 * process CPU time (the environment included), and the time inside the agent's calls per decision.
 */
async function acting(name: string, adapter: TaskAdapter, vocabulary: Vocabulary, episodes: number) {
  const skills = (await adapter.skills?.()) ?? [];
  const tasks = await adapter.load({ split: 'train', limit: episodes, seed: 5 });
  const plan = (agent: Agent) =>
    tasks.map((task) => ({
      adapter,
      agent,
      task,
      skill: skillFor(skills, task.family),
      seed: `${SEED}/${task.id}`,
    }));
  const play = async (batched: boolean, count = tasks.length) => {
    // A fresh agent each time: the same weights, and no cache carried over from an earlier run.
    const { timed, policyMs } = timedAgent(createSkillReadingAgent({ vocabulary, seed: 1 }));
    const started = performance.now();
    const cpu = cpuMs();
    const out: Trajectory[] = [];
    const all = plan(timed).slice(0, count);
    if (!batched) for (const episode of all) out.push(await playEpisode(episode));
    else {
      for (let at = 0; at < all.length; at += ROUND) {
        out.push(...(await playEpisodesTogether(timed, all.slice(at, at + ROUND))));
      }
    }
    return {
      out,
      s: (performance.now() - started) / 1000,
      cpuS: (cpuMs() - cpu) / 1000,
      policyMs: policyMs(),
    };
  };
  // Both paths compiled and warm before either is timed.
  for (const batched of [false, true]) await play(batched, 32);
  const modes = ['act, one decision a call', `actMany, rounds of ${ROUND} episodes`];
  const best: (Awaited<ReturnType<typeof play>> | undefined)[] = [undefined, undefined];
  for (let rep = 0; rep < ACTING_REPS; rep++) {
    for (const m of [0, 1]) {
      const run = await play(m === 1);
      if (!best[m] || run.s < (best[m]?.s as number)) best[m] = run;
    }
  }
  const reference = JSON.stringify(best[0]?.out);
  return best.map((run, m) => {
    const { out, s, cpuS, policyMs } = run as Awaited<ReturnType<typeof play>>;
    const steps = out.reduce((a, t) => a + t.steps.length, 0);
    return [
      name,
      modes[m] as string,
      String(tasks.length),
      String(steps),
      (steps / s).toFixed(0),
      (steps / cpuS).toFixed(0),
      ((1000 * policyMs) / steps).toFixed(1),
      (out.reduce((a, t) => a + t.reward, 0) / out.length).toFixed(3),
      JSON.stringify(out) === reference ? 'yes' : 'NO',
    ];
  });
}

// The trainer settings of the paper runs (cli/bench/paper.mjs): what a training run spends its time on.
const TRAINER = {
  lr: 0.02,
  miniBatches: 4,
  kl: { kind: 'k3', coef: 0.001 },
  aggregation: 'seq-mean-token-mean',
} satisfies TfjsTrainerOptions;

/**
 * The batch as the hand-gradient trainer sees it (dealt round-robin into the mini-batches, each packed by
 * `packDecisionBatch`), padded per decision for PyTorch, with the starting weights and the options.
 */
function writeTorchBatch(
  dir: string,
  agent: SkillReadingAgent,
  trajectories: Trajectory[],
  advantages: number[],
) {
  const F = FEATURE_COUNT;
  const parts = Math.min(TRAINER.miniBatches, trajectories.length);
  const order = Array.from({ length: parts }, (_, m) =>
    trajectories.map((_, i) => i).filter((i) => i % parts === m),
  );
  const T = Math.max(1, ...trajectories.map((t) => t.steps.length));
  const d = agent.config.dim;
  const p = agent.parameters;
  const arrays: Record<string, [Int32Array | Float32Array, number[]]> = {
    embedding: [p.embedding, [agent.vocabulary.size, d]],
    hiddenWeights: [p.hiddenWeights, [CONTEXT_BLOCKS * d, agent.config.hidden]],
    hiddenBias: [p.hiddenBias, [agent.config.hidden]],
    query: [p.query, [agent.config.hidden, d]],
    actionBias: [p.actionBias, [d]],
    featureWeights: [p.featureWeights, [F]],
    featureGate: [p.featureGate, [agent.config.hidden, F]],
    prior: [p.prior, [4]],
  };
  order.forEach((rows, m) => {
    const ts = rows.map((i) => trajectories[i] as Trajectory);
    const memories = ts.map((t) => {
      const actions = t.steps.map((s) => s.action);
      return actions.map((_, i) => agent.memoryIds(actions.slice(0, i)));
    });
    const b = packDecisionBatch(
      ts.map((t) => t.steps.map((s) => agent.decisionRecord(s.info?.policy) as DecisionRecord)),
      { vocabularySize: agent.vocabulary.size, T, memories },
    );
    let C = 1;
    for (let n = 0; n < b.N; n++)
      C = Math.max(C, (b.candStart[n + 1] as number) - (b.candStart[n] as number));
    let S = 0;
    for (let n = 0; n < b.N; n++)
      S = Math.max(S, (b.clauseStart[n + 1] as number) - (b.clauseStart[n] as number));
    const cand = new Int32Array(b.N * C);
    const candMask = new Float32Array(b.N * C);
    const feats = new Float32Array(b.N * C * F);
    const [done, rank, sign, clauseMask] = [0, 1, 2, 3].map(() => new Float32Array(b.N * S));
    const pairDecision: number[] = [];
    const pairCand: number[] = [];
    const pairSims: number[] = [];
    for (let n = 0; n < b.N; n++) {
      const k0 = b.candStart[n] as number;
      const c0 = b.clauseStart[n] as number;
      const clauses = (b.clauseStart[n + 1] as number) - c0;
      for (let s = 0; s < clauses; s++) {
        (done as Float32Array)[n * S + s] = b.done[c0 + s] as number;
        (rank as Float32Array)[n * S + s] = b.rank[c0 + s] as number;
        (sign as Float32Array)[n * S + s] = b.sign[c0 + s] as number;
        (clauseMask as Float32Array)[n * S + s] = 1;
      }
      for (let k = k0; k < (b.candStart[n + 1] as number); k++) {
        const c = k - k0;
        cand[n * C + c] = b.candList[k] as number;
        candMask[n * C + c] = 1;
        for (let f = 0; f < F; f++) feats[(n * C + c) * F + f] = b.feats[k * F + f] as number;
        if ((b.simStart[k + 1] as number) > (b.simStart[k] as number)) {
          pairDecision.push(n);
          pairCand.push(c);
          const row = new Array<number>(S).fill(0);
          for (let e = b.simStart[k] as number; e < (b.simStart[k + 1] as number); e++) {
            row[b.simClause[e] as number] = b.simValue[e] as number;
          }
          pairSims.push(...row);
        }
      }
    }
    const mask = new Float32Array(ts.length * T);
    const adv = new Float32Array(ts.length * T);
    const old = new Float32Array(ts.length * T);
    ts.forEach((t, r) => {
      t.steps.forEach((s, i) => {
        mask[r * T + i] = 1;
        adv[r * T + i] = advantages[rows[r] as number] as number;
        old[r * T + i] = s.logProb as number;
      });
    });
    const listOffsets = b.listStart.subarray(0, b.U);
    Object.assign(arrays, {
      [`m${m}.listIds`]: [b.listIds, [b.listIds.length]],
      [`m${m}.listWeights`]: [Float32Array.from(b.listWeights), [b.listWeights.length]],
      [`m${m}.listOffsets`]: [listOffsets, [b.U]],
      [`m${m}.context`]: [b.context, [b.N, CONTEXT_BLOCKS]],
      [`m${m}.cand`]: [cand, [b.N, C]],
      [`m${m}.candMask`]: [candMask, [b.N, C]],
      [`m${m}.feats`]: [feats, [b.N, C, F]],
      [`m${m}.chosen`]: [b.chosen, [b.N]],
      [`m${m}.invTemp`]: [Float32Array.from(b.invTemp), [b.N]],
      [`m${m}.position`]: [b.position, [b.N]],
      [`m${m}.done`]: [done, [b.N, S]],
      [`m${m}.rank`]: [rank, [b.N, S]],
      [`m${m}.sign`]: [sign, [b.N, S]],
      [`m${m}.clauseMask`]: [clauseMask, [b.N, S]],
      [`m${m}.pairDecision`]: [Int32Array.from(pairDecision), [pairDecision.length]],
      [`m${m}.pairCand`]: [Int32Array.from(pairCand), [pairCand.length]],
      [`m${m}.pairSims`]: [Float32Array.from(pairSims), [pairDecision.length, S]],
      [`m${m}.mask`]: [mask, [ts.length, T]],
      [`m${m}.advantages`]: [adv, [ts.length, T]],
      [`m${m}.old`]: [old, [ts.length, T]],
    });
  });
  const manifest: Record<string, unknown> = {
    dim: d,
    hidden: agent.config.hidden,
    scales: hiddenScales(agent.config.hidden),
    T,
    parts,
    // tensor-ops' defaults for what TRAINER leaves unset (clip 0.2, dual clip 3, max grad norm 1).
    options: {
      lr: TRAINER.lr,
      klCoef: TRAINER.kl.coef,
      aggregation: TRAINER.aggregation,
      clipLow: 0.2,
      clipHigh: 0.2,
      dualClip: 3,
      maxGradNorm: 1,
    },
    arrays: {},
  };
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

/** The interpreter that has torch: $PYTHON, else Debian's /usr/bin/python3 when it imports torch and numpy. */
function torchPython(): { python: string } | { skipped: string } {
  const check = (python: string) => spawnSync(python, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  const fromEnv = process.env.PYTHON;
  if (fromEnv) {
    const r = check(fromEnv);
    if (r.status === 0) return { python: fromEnv };
    return { skipped: `PYTHON=${fromEnv} cannot import torch, numpy (${lastLine(r)})` };
  }
  const debian = '/usr/bin/python3';
  if (!existsSync(debian)) return { skipped: 'no PYTHON set and /usr/bin/python3 absent' };
  const r = check(debian);
  if (r.status === 0) return { python: debian };
  return {
    skipped: `no PYTHON set and ${debian} cannot import torch, numpy (${lastLine(r)}; apt-get install python3-torch)`,
  };
}

function lastLine(r: { stderr: string; error?: Error }): string {
  return r.error?.message ?? (r.stderr.trim().split('\n').at(-1) || 'failed');
}

/** A PyTorch process serving updates one line at a time (`torch_step.py --serve`). */
interface TorchServer {
  torch: string;
  python: string;
  /** One update: wall-clock and process CPU milliseconds. */
  update(): Promise<{ ms: number; cpu: number }>;
  weights(): Promise<Record<string, number[]>>;
  close(): void;
}

async function startTorch(dir: string): Promise<TorchServer | { skipped: string }> {
  const found = torchPython();
  if ('skipped' in found) return found;
  // The bench runs bundled from node_modules/.cache/skillrl-bench; the script stays in bench/.
  const script = [join(here, 'torch_step.py'), join(here, '../../../bench/torch_step.py')].find((f) =>
    existsSync(f),
  );
  if (!script) return { skipped: 'bench/torch_step.py not found' };
  const child = spawn(found.python, [script, dir, '--serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error(stderr.trim().split('\n').at(-1) ?? 'torch_step.py exited');
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const ask = async (command: string) => {
    child.stdin.write(`${command}\n`);
    return next();
  };
  try {
    const hello = await next();
    return {
      torch: String(hello.torch),
      python: String(hello.python),
      update: async () => {
        const r = await ask('update');
        return { ms: r.ms as number, cpu: r.cpu_ms as number };
      },
      weights: async () => (await ask('weights')).weights as Record<string, number[]>,
      close: () => {
        child.stdin.end('quit\n');
      },
    };
  } catch (error) {
    child.kill();
    return { skipped: `${found.python} ${script}: ${(error as Error).message}` };
  }
}

/**
 * Each backend's two tfjs trainers and PyTorch take turns on the same batch (an update each, REPS times
 * after a warm-up), so all three run under the same load; the machine is shared.
 */
async function trainerSteps(agent: SkillReadingAgent, skills: Skill[]) {
  const { trajectories, advantages } = await trainingBatch(agent, skills, SEED);
  const dir = mkdtempSync(join(tmpdir(), 'policy-tfjs-bench-'));
  writeTorchBatch(dir, agent, trajectories, advantages);
  const torch = await startTorch(dir);
  const rows: string[][] = [];
  const torchTimes: number[] = [];
  let weightsNote = '';
  try {
    const results: { label: string; step: number[]; core: number[]; pack: number[] }[] = [];
    if (!('skipped' in torch)) await torch.update();
    for (const backend of ['wasm', 'cpu'] as BackendChoice[]) {
      await initBackend({ prefer: backend, fallback: false });
      const runs = (['hand', 'tfjs'] as const).map((gradients) => {
        const learner = createSkillReadingAgent({
          vocabulary: agent.vocabulary,
          parameters: agent.parameters,
        });
        return {
          gradients,
          learner,
          trainer: createTfjsTrainer(learner, { ...TRAINER, gradients }),
          times: {
            label: `tfjs-${backend}, ${gradients === 'hand' ? 'hand-written gradients (new)' : 'tfjs autodiff (old)'}`,
            step: [] as number[],
            core: [] as number[],
            pack: [] as number[],
          },
        };
      });
      for (const run of runs) await run.trainer.update({ trajectories, advantages });
      // The new path takes turns with PyTorch; the old one (much slower, heavy on memory) runs after them.
      const [hand, old] = runs as [(typeof runs)[number], (typeof runs)[number]];
      const timed = async (run: (typeof runs)[number]) => {
        const m = await run.trainer.update({ trajectories, advantages });
        run.times.step.push(m.step_ms as number);
        run.times.core.push((m.ref_ms as number) + (m.grad_ms as number));
        run.times.pack.push(m.pack_ms as number);
      };
      for (let i = 0; i < REPS; i++) {
        await timed(hand);
        if (!('skipped' in torch)) torchTimes.push((await torch.update()).ms);
      }
      for (let i = 0; i < REPS; i++) await timed(old);
      if (backend === 'wasm' && !('skipped' in torch)) {
        // Both have now taken 1 + REPS updates from the same weights on the same batch.
        const theirs = await torch.weights();
        const ours = (runs[0] as (typeof runs)[number]).learner.parameters;
        let diff = 0;
        let moved = 0;
        for (const [name, values] of Object.entries(theirs)) {
          const key = name as keyof AgentParameters;
          values.forEach((v, i) => {
            diff = Math.max(diff, Math.abs(v - (ours[key][i] as number)));
            moved = Math.max(moved, Math.abs(v - (agent.parameters[key][i] as number)));
          });
        }
        weightsNote = `Same network: after ${REPS + 1} updates from the same weights, PyTorch's weights and the tfjs hand-gradient trainer's (wasm) differ by at most ${diff.toExponential(2)}; the updates moved them by up to ${moved.toFixed(3)}.`;
      }
      for (const run of runs) {
        run.trainer.dispose();
        results.push(run.times);
      }
    }
    const torchMs = torchTimes.length > 0 ? median(torchTimes) : undefined;
    const torchMin = torchTimes.length > 0 ? Math.min(...torchTimes) : undefined;
    for (const r of results) {
      const core = median(r.core);
      const least = Math.min(...r.core);
      rows.push([
        r.label,
        median(r.step).toFixed(1),
        core.toFixed(1),
        least.toFixed(1),
        median(r.pack).toFixed(1),
        torchMs ? (core / torchMs).toFixed(2) : '-',
        torchMin ? (least / torchMin).toFixed(2) : '-',
      ]);
    }
    if ('skipped' in torch) {
      rows.push(['pytorch-cpu', `skipped: ${torch.skipped}`, '', '', '', '', '']);
    } else {
      rows.push([
        `pytorch-cpu (torch ${torch.torch}, ${torch.python}, 1 thread)`,
        (torchMs as number).toFixed(1),
        (torchMs as number).toFixed(1),
        (torchMin as number).toFixed(1),
        '-',
        '1.00',
        '1.00',
      ]);
    }
  } finally {
    if (!('skipped' in torch)) torch.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const decisions = trajectories.reduce((a, t) => a + t.steps.length, 0);
  console.log(
    `Trainer update on one batch of 64 household episodes (${decisions} decisions; ${JSON.stringify(TRAINER)}, PPO clip + dual clip, Adam), ${REPS} timed updates each after a warm-up; the new path took turns with PyTorch (${torchTimes.length} timed updates), the old one ran after them. "step" is what PyTorch also runs (the frozen skill reader's terms, the reference pass, ${TRAINER.miniBatches} mini-batch steps); "update" adds unpacking the JSON records (pack: memories, word lists, typed arrays). Wall-clock medians; on a shared machine the minimums are the steadier comparison:`,
  );
  printTable(
    [
      'implementation',
      'update ms',
      'step ms',
      'step min ms',
      'pack ms',
      'step ÷ PyTorch (medians)',
      'step ÷ PyTorch (minimums)',
    ],
    rows,
  );
  if (weightsNote) console.log(`${weightsNote}\n`);
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
    const tasks = Array.from({ length: 8 }, (_, k) => train[(step * 8 + k) % train.length] as Task);
    const { trajectories, advantages } = await groupedEpisodes(
      agent,
      skills,
      tasks,
      (_task, k, g) => `${SEED}/grpo/${step}/${k}/${g}`,
    );
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
  printTable(
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
  console.log(
    `Acting: decisions per second (untrained agent, skill present, sampled; typed-array scorer, no tensors), the same episodes one at a time and ${ROUND} at a time in lockstep; "same" compares every trajectory with the first row's:`,
  );
  printTable(
    [
      'environment',
      'mode',
      'episodes',
      'decisions',
      'decisions/s (wall)',
      'decisions per CPU s',
      'policy µs/decision',
      'mean reward',
      'same',
    ],
    [
      ...(await acting('household', household, vocabulary, ACTING_EPISODES)),
      ...(await acting('shop', shop, shopVocabulary, Math.ceil(ACTING_EPISODES / 2))),
    ],
  );
  if (ONLY === 'acting') return;
  await trainerSteps(agent, skills);
  await learningCurve(agent, skills);
}

await main();
