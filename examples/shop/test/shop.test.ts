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

afterAll(() => cleanTestRuns(['shop']));

describe('examples/shop', () => {
  it('the config is valid as shipped', async () => {
    const check = await skillrl(['check', join(EXAMPLE, 'shop.yaml')]);
    expect(check.code, check.out.join('\n')).toBe(0);
  });

  it('skillrl run evolves shopping skills for the frozen agent against WebShop rewards', async () => {
    const config = exampleConfig('shop.yaml');
    // Test size: 2 instructions, G = 2, K = 3, M = 2; adapter, agent, editor and step cap as shipped.
    const path = writeTestConfig('shop', {
      ...config,
      tasks: { split: 'train', limit: 2 },
      evolve: { ...config.evolve, generations: 2, candidates: 3, episodes: 2 },
    } as RunConfig);
    const run = await skillrl(['run', path, '--run-dir', join(TEST_RUNS, 'shop')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;
    expect(missingRunFiles(dir)).toEqual([]);

    // Planned: s0 (the adapter's buying skill) 2 tasks × 2, then 2 generations × 2 tasks × 3 candidates × 2.
    const rollouts = readJsonl<Trajectory>(join(dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(28);
    expect(metrics.rollouts).toBe(28);
    expect(new Set(rollouts.map((t) => t.family))).toEqual(new Set(['shopping']));

    for (const t of rollouts) {
      expect(t.error).toBeUndefined();
      expect(t.steps.length).toBeGreaterThan(0);
      expect(t.steps.length).toBeLessThanOrEqual(15); // maxSteps
      // WebShop's reward is graded in [0, 1] and is the verdict's score; only a purchase earns any.
      expect(t.reward).toBe(t.verdict.score);
      expect(t.reward).toBeGreaterThanOrEqual(0);
      expect(t.reward).toBeLessThanOrEqual(1);
      expect(t.verdict.passed).toBe(t.reward === 1);
      if (t.reward > 0) expect(t.steps.at(-1)?.action).toBe('click[buy now]');
      for (const s of t.steps) expect(s.action).toMatch(/^(search|click)\[.+\]$/);
    }
    // Generation 0 ran the adapter's skill, and under it the agent does buy things: some of those episodes
    // end with a purchase that earns reward (seed 1: 3 of 4). The editor's candidates followed.
    const g0 = rollouts.filter((t) => t.generation === 0);
    expect(g0).toHaveLength(4);
    expect(g0.filter((t) => t.reward > 0).length).toBeGreaterThan(0);
    const candidates = readJsonl<{ candidates: { skill: { name: string; body: string } }[] }>(
      join(dir, 'candidates.jsonl'),
    );
    expect(candidates).toHaveLength(4); // 2 generations × 2 tasks
    for (const record of candidates) {
      expect(record.candidates).toHaveLength(3);
      for (const c of record.candidates) expect(c.skill.body.length).toBeGreaterThan(0);
    }
    for (const g of [0, 1, 2]) {
      const own = rollouts.filter((t) => t.generation === g);
      expect(metrics[`generation_${g}_mean`]).toBeCloseTo(
        own.reduce((a, t) => a + t.reward, 0) / own.length,
        12,
      );
    }
    expect(readJson<{ components: Record<string, string> }>(join(dir, 'run.json')).components).toMatchObject({
      adapter: 'registry:shop',
      agent: 'registry:skill-reading',
      generator: 'registry:step-editor',
    });
    const report = buildReport(dir).summary;
    expect(report).toMatchObject({
      status: 'completed',
      methodLabel: 'evolve:grpo',
      rollouts: 28,
      notes: [],
    });
    expect(report.families.map((f) => f.family)).toEqual(['shopping']);
    expect(report.charts.length).toBeGreaterThan(0);
  });
});
