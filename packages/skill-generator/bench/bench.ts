/**
 * Step editor speed: `propose` and `update` on the household vocabulary, on each tfjs backend present.
 * Run: `pnpm --filter @skillrl/skill-generator bench` (BENCH_REPS, default 7). Times are wall-clock ms.
 */
import type { Skill, Task } from '@skillrl/core';
import household from '@skillrl/task-household';
import { type BackendChoice, initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { createStepEditor } from '../src/entries/step-editor.js';

const REPS = Number(process.env.BENCH_REPS ?? 7);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function time(fn: (rep: number) => Promise<unknown>): Promise<{ median: number; min: number }> {
  await fn(-1); // warm-up: kernel set-up, Adam's slots
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return { median: median(samples), min: Math.min(...samples) };
}

async function main(): Promise<void> {
  const tasks = (await household.load({ split: 'train', limit: 6, seed: 2026 })) as Task[];
  const task = tasks[3] as Task;
  const vocabulary = household.stepVocabulary?.() ?? {};
  const s0 = household.skills().find((s) => s.name === 'household-heat') as Skill;
  const rows: string[][] = [];
  for (const backend of ['wasm', 'cpu'] as BackendChoice[]) {
    try {
      await initBackend({ prefer: backend, fallback: false, env: {} });
    } catch (e) {
      rows.push([backend, `not available: ${(e as Error).message.split('\n')[0]}`, '', '', '']);
      continue;
    }
    for (const n of [8, 32]) {
      const editor = createStepEditor({ vocabulary, seed: 'bench' });
      // Editing the adapter's hand-written heat skill, as in an evolve run.
      const context = (g: number) => ({ task, generation: g + 2, history: [], seed: 2026, currentSkill: s0 });
      const propose = await time((g) => editor.propose(context(g), n));
      const group = await editor.propose(context(0), n);
      const advantages = group.map((_, i) => (i % 2 === 0 ? 1 : -1));
      const update = await time(() => editor.update(group, advantages));
      const tokens = group.reduce((s, c) => s + c.tokenIds.length, 0);
      rows.push([
        backend,
        `propose n=${n}`,
        propose.median.toFixed(1),
        propose.min.toFixed(1),
        `${tokens} ops`,
      ]);
      rows.push([
        backend,
        `update ${n} candidates`,
        update.median.toFixed(1),
        update.min.toFixed(1),
        `${tokens} ops`,
      ]);
      editor.dispose();
    }
  }
  const header = ['backend', 'case (household vocabulary, defaults)', 'median ms', 'min ms', 'batch'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
  console.log(`\nreps ${REPS}; tf ${tf.version.tfjs}; node ${process.version}`);
  await learningCurve(task, vocabulary);
  await editCurve(task, vocabulary, s0);
}

/**
 * Editing s0 (the adapter's heat skill) with a rule reward in place of the task model: 1 when the revised
 * skill opens with "take the object". keepPrior 1 (a wide search); rate over 64 fresh samples every 5
 * updates of 16 candidates with group-centred advantages.
 */
async function editCurve(task: Task, vocabulary: Record<string, string[]>, s0: Skill): Promise<void> {
  const editor = createStepEditor({ vocabulary, seed: 'bench-edit', keepPrior: 1, learningRate: 0.03 });
  const reward = (steps: string[]): number => (steps[0] === 'take the object' ? 1 : 0);
  const context = (generation: number, seed: number) => ({
    task,
    generation,
    history: [],
    seed,
    currentSkill: s0,
  });
  const rate = async () => {
    const sample = await editor.propose(context(0, 4242), 64);
    return sample.reduce((s, c) => s + reward(c.info.stepEditor.steps), 0) / sample.length;
  };
  const points: string[] = [`0: ${(await rate()).toFixed(2)}`];
  const t0 = performance.now();
  for (let step = 1; step <= 30; step++) {
    const group = await editor.propose(context(step, 2026), 16);
    const r = group.map((c) => reward(c.info.stepEditor.steps));
    const mean = r.reduce((s, x) => s + x, 0) / r.length;
    await editor.update(
      group,
      r.map((x) => x - mean),
    );
    if (step % 5 === 0) points.push(`${step}: ${(await rate()).toFixed(2)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `\nrule reward (edit s0 heat so it opens with "take the object"), wasm, 16 candidates per update`,
  );
  console.log(`success rate of 64 samples after N updates — ${points.join(', ')} (${seconds.toFixed(1)} s)`);
  editor.dispose();
}

/**
 * A rule reward in place of the task model: 1 when the skill heats the object before putting it in the
 * target receptacle and has at most 6 steps. Rate over 64 fresh samples (fixed seed) every 5 updates of
 * 16 candidates with group-centred advantages; the order prior is off, so the rise is learned.
 */
async function learningCurve(task: Task, vocabulary: Record<string, string[]>): Promise<void> {
  await initBackend({ prefer: 'wasm', env: {} });
  const heatsFirst = (steps: string[]): number => {
    const heat = steps.indexOf('heat the object with the microwave');
    const put = steps.indexOf('put the object in the target receptacle');
    return heat >= 0 && put > heat && steps.length <= 6 ? 1 : 0;
  };
  const editor = createStepEditor({ vocabulary, seed: 'bench-curve', orderPrior: 0, learningRate: 0.03 });
  const rate = async () => {
    const sample = await editor.propose({ task, generation: 0, history: [], seed: 4242 }, 64);
    return sample.reduce((s, c) => s + heatsFirst(c.info.stepEditor.steps), 0) / sample.length;
  };
  const points: string[] = [`0: ${(await rate()).toFixed(2)}`];
  const t0 = performance.now();
  for (let step = 1; step <= 30; step++) {
    const group = await editor.propose({ task, generation: step, history: [], seed: 2026 }, 16);
    const r = group.map((c) => heatsFirst(c.info.stepEditor.steps));
    const mean = r.reduce((s, x) => s + x, 0) / r.length;
    await editor.update(
      group,
      r.map((x) => x - mean),
    );
    if (step % 5 === 0) points.push(`${step}: ${(await rate()).toFixed(2)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\nrule reward (heat before placing, ≤ 6 steps), wasm, 16 candidates per update`);
  console.log(`success rate of 64 samples after N updates — ${points.join(', ')} (${seconds.toFixed(1)} s)`);
  editor.dispose();
}

await main();
