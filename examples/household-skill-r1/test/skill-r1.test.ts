import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import type { RunConfig } from '@skillrl/orchestrator';
import { buildReport } from '@skillrl/report';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanTestRuns,
  EXAMPLE,
  exampleConfig,
  missingRunFiles,
  readJson,
  readJsonl,
  skillrl,
  TEST_RUNS,
  writeTestConfig,
} from './run-example.js';

afterAll(() => cleanTestRuns(['skill-r1', 'inference', 'vanilla', 'no-skill']));

const CONFIGS = ['skill-r1.yaml', 'skill-r1-inference.yaml', 'vanilla-grpo.yaml', 'no-skill.yaml'];

/** One of the example's configs at test size: 2 tasks, G = 2, K = 3, M = 2; everything else as shipped. */
function shortened(file: string, name: string): string {
  const config = exampleConfig(file);
  const evolve = config.evolve ?? {};
  return writeTestConfig(name, {
    ...config,
    name,
    tasks: { split: 'train', limit: 2 },
    evolve: {
      ...evolve,
      episodes: 2,
      ...(evolve.finalEpisodes === undefined ? {} : { finalEpisodes: 1 }),
      ...(evolve.variant === 'no-skill' ? {} : { candidates: 3 }),
      ...(evolve.variant === undefined || evolve.variant === 'skill-r1' ? { generations: 2 } : {}),
    },
  } as RunConfig);
}

async function run(file: string, name: string) {
  const result = await skillrl(['run', shortened(file, name), '--run-dir', join(TEST_RUNS, name)]);
  expect(result.code, result.err.join('\n')).toBe(0);
  expect(missingRunFiles(result.result.dir).filter((f) => f !== 'advantages.jsonl')).toEqual([]);
  return { ...result.result, rollouts: readJsonl<Trajectory>(join(result.result.dir, 'rollouts.jsonl')) };
}

interface GenerationEvent {
  type: 'generation';
  taskId: string;
  generation: number;
  meanReward: number;
  metrics?: Record<string, number>;
}

function generationEvents(dir: string): GenerationEvent[] {
  return readJsonl<{ type: string }>(join(dir, 'events.jsonl')).filter(
    (e): e is GenerationEvent => e.type === 'generation',
  );
}

describe('examples/household-skill-r1', () => {
  it('every config is valid as shipped', async () => {
    for (const file of CONFIGS) {
      const check = await skillrl(['check', join(EXAMPLE, file)]);
      expect(check.code, `${file}: ${check.out.join('\n')}`).toBe(0);
    }
  });

  it('Skill-R1 GRPO: the editor proposes, the frozen agent plays, the editor trains, the best skill is carried', async () => {
    const { dir, metrics, report, rollouts } = await run('skill-r1.yaml', 'skill-r1');
    // Planned: generation 0 runs s0 on 2 tasks × M = 2 (4), then G = 2 generations × 2 tasks × K = 3 × M = 2 (24),
    // then the final skills re-run once per task (2), and once per task without them (2: finalPaired, the
    // final skills' utility).
    expect(rollouts).toHaveLength(32);
    expect(metrics.rollouts).toBe(32);
    const final = rollouts.filter((t) => t.id.startsWith('final/') && t.condition === 1);
    expect(final).toHaveLength(2);
    const without = rollouts.filter((t) => t.id.startsWith('final/') && t.condition === 0);
    expect(without).toHaveLength(2);
    expect(without.every((t) => t.skill === undefined)).toBe(true);
    expect(metrics.final_utility_pairs).toBe(2);
    expect(metrics.final_eval_reward).toBeCloseTo(final.reduce((a, t) => a + t.reward, 0) / 2, 12);
    expect(metrics.tasks).toBe(2);
    expect(rollouts.filter((t) => t.generation === 0)).toHaveLength(4);
    expect(rollouts.filter((t) => t.generation === 1)).toHaveLength(12);
    expect(rollouts.filter((t) => t.generation === 2)).toHaveLength(12);
    // Every rollout of this variant reads a skill, but the final evaluation's skill-free half.
    expect(rollouts.filter((t) => !t.id.startsWith('final/')).every((t) => t.condition === 1)).toBe(true);

    // Each generation's K candidates were stored before their rollouts, valid SKILL.md names.
    const candidates = readJsonl<{ generation: number; candidates: { skill: { name: string } }[] }>(
      join(dir, 'candidates.jsonl'),
    );
    expect(candidates).toHaveLength(4);
    for (const record of candidates) {
      expect(record.candidates).toHaveLength(3);
      for (const c of record.candidates) expect(c.skill.name).toMatch(/^[a-z0-9-]+$/);
    }
    const advantages = readJsonl<{ rows: { advantage: number }[] }>(join(dir, 'advantages.jsonl'));
    expect(advantages).toHaveLength(2);
    for (const a of advantages) {
      expect(a.rows).toHaveLength(6);
      for (const r of a.rows) expect(Number.isFinite(r.advantage)).toBe(true);
    }
    // mode: grpo updates the editor each generation: its training metrics are in the generation events.
    const events = generationEvents(dir);
    expect(events).toHaveLength(6); // 2 tasks × generations 0, 1, 2
    for (const e of events.filter((e) => e.generation > 0)) {
      expect(Object.keys(e.metrics ?? {}).some((k) => k.startsWith('train_'))).toBe(true);
    }
    // The skill carried out of every generation, and the final one, are on disk.
    for (const g of ['0', '1', '2', 'final']) expect(readdirSync(join(dir, 'skills', g))).toHaveLength(2);

    for (const g of [0, 1, 2]) {
      const mean = metrics[`generation_${g}_mean`] as number;
      const own = rollouts.filter((t) => t.generation === g);
      // The summary's generation mean is the mean reward of that generation's rollouts (equal group sizes).
      expect(mean).toBeCloseTo(own.reduce((a, t) => a + t.reward, 0) / own.length, 12);
    }
    expect(metrics.final_reward).toBeGreaterThanOrEqual(0);
    expect(metrics.final_reward).toBeLessThanOrEqual(1);

    const summary = buildReport(dir).summary;
    expect(summary).toMatchObject({
      status: 'completed',
      methodLabel: 'evolve:grpo',
      rollouts: 32,
      notes: [],
    });
    expect(summary.generations).toBe(2); // the last generation recorded (0 is s0)
    expect(summary.charts.length).toBeGreaterThan(0);
    expect(existsSync(report)).toBe(true);
  });

  it('Skill-R1 inference: the same loop with the editor frozen (no training metrics)', async () => {
    const { dir, rollouts } = await run('skill-r1-inference.yaml', 'inference');
    expect(rollouts).toHaveLength(32);
    const events = generationEvents(dir).filter((e) => e.generation > 0);
    expect(events).toHaveLength(4);
    for (const e of events)
      expect(Object.keys(e.metrics ?? {}).some((k) => k.startsWith('train_'))).toBe(false);
    expect(readJson<{ mode: string }>(join(dir, 'summary.json')).mode).toBe('inference');
  });

  it('vanilla GRPO: one generation, advantages within each task only (lambda = 0)', async () => {
    const { dir, metrics, rollouts } = await run('vanilla-grpo.yaml', 'vanilla');
    // It starts from s0 like every variant with an editor: s0 × 2 tasks × M = 2, then 1 generation × 2
    // tasks × K = 3 × M = 2.
    expect(rollouts).toHaveLength(16);
    expect(rollouts.filter((t) => t.generation === 0 && t.skill !== undefined)).toHaveLength(4);
    const gen1 = rollouts.filter((t) => t.generation === 1);
    expect(metrics.generation_1_mean).toBeCloseTo(gen1.reduce((a, t) => a + t.reward, 0) / gen1.length, 12);
    const [record] = readJsonl<{ rows: { taskId: string; advantage: number }[] }>(
      join(dir, 'advantages.jsonl'),
    );
    // A_intra alone is centred within each task's group of candidates.
    const byTask = new Map<string, number>();
    for (const r of record?.rows ?? []) byTask.set(r.taskId, (byTask.get(r.taskId) ?? 0) + r.advantage);
    expect(byTask.size).toBe(2);
    for (const sum of byTask.values()) expect(sum).toBeCloseTo(0, 9);
  });

  it('no skill: the frozen agent alone, M episodes per task, no editor', async () => {
    const { dir, metrics, rollouts } = await run('no-skill.yaml', 'no-skill');
    expect(rollouts).toHaveLength(4);
    expect(rollouts.every((t) => t.condition === 0)).toBe(true);
    expect(existsSync(join(dir, 'candidates.jsonl'))).toBe(false);
    const mean = rollouts.reduce((a, t) => a + t.reward, 0) / rollouts.length;
    expect(metrics.final_reward).toBeCloseTo(mean, 12);
  });
});
