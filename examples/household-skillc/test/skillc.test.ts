import { readFileSync } from 'node:fs';
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

afterAll(() => cleanTestRuns(['skillc', 'grpo']));

// The example's config at test size: same method, agent, trainer and curriculum; fewer steps and tasks.
function shortened(section: Record<string, unknown>): RunConfig {
  const config = exampleConfig('skillc.yaml');
  // The held-out test (120 tasks after training) is left out at this size.
  const { test: _test, ...internalize } = config.internalize ?? {};
  return {
    ...config,
    tasks: { split: 'train', limit: 12 },
    internalize: {
      ...internalize,
      steps: 3,
      tasksPerStep: 2,
      groupSize: 4,
      validateEvery: 3,
      validation: { split: 'valid_seen', limit: 6 },
      ...section,
    },
  } as RunConfig;
}

describe('examples/household-skillc', () => {
  it('the full config is valid as shipped', async () => {
    const run = await skillrl(['check', join(EXAMPLE, 'skillc.yaml')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    // Its validation can retire a family whose gap has closed: no warning.
    expect(run.err.join('\n')).not.toMatch(/warning/);
  });

  it('skillrl run trains SKILLC end to end and writes a complete run directory and report', async () => {
    const path = writeTestConfig('skillc', { ...shortened({}), name: 'skillc' });
    const run = await skillrl(['run', path, '--run-dir', join(TEST_RUNS, 'skillc')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;
    expect(missingRunFiles(dir)).toEqual([]);

    // Planned: 3 steps × 2 tasks × 4 rollouts = 24 training rollouts, and two paired validations (step 0,
    // before any update, and after step 3) of 6 tasks × 1 episode × 2 conditions = 24.
    const rollouts = readJsonl<Trajectory>(join(dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(48);
    expect(metrics.rollouts).toBe(48);
    expect(metrics.steps).toBe(3);
    const training = rollouts.filter((t) => t.id.startsWith('s'));
    const validation = rollouts.filter((t) => t.id.startsWith('v'));
    expect(training).toHaveLength(24);
    expect(validation.filter((t) => t.condition === 1)).toHaveLength(12);
    expect(validation.filter((t) => t.condition === 0)).toHaveLength(12);
    // SKILLC pairs: at the start every family's skill is active, so training groups mix both conditions.
    expect(training.some((t) => t.condition === 1)).toBe(true);
    expect(training.some((t) => t.condition === 0)).toBe(true);
    for (const t of rollouts) {
      expect(t.reward).toBeGreaterThanOrEqual(0);
      expect(t.reward).toBeLessThanOrEqual(1);
      expect(t.steps.length).toBeGreaterThan(0);
    }

    // One advantage record per step, one row per training rollout, the tfjs trainer updated each step.
    const advantages = readJsonl<{ rows: { advantage: number }[] }>(join(dir, 'advantages.jsonl'));
    expect(advantages).toHaveLength(3);
    for (const record of advantages) {
      expect(record.rows).toHaveLength(8);
      for (const row of record.rows) expect(Number.isFinite(row.advantage)).toBe(true);
    }
    const events = readJsonl<{ type: string; metrics?: Record<string, number> }>(join(dir, 'events.jsonl'));
    const steps = events.filter((e) => e.type === 'step');
    expect(steps).toHaveLength(3);
    expect(events.filter((e) => e.type === 'validation').map((e) => (e as { step?: number }).step)).toEqual([
      0, 3,
    ]);
    expect(events.at(-1)?.type).toBe('run:end');

    // The summary: success rates are fractions, the gap is their difference, the final validation matches.
    expect(metrics.final_gap).toBeCloseTo(
      (metrics.final_success_with as number) - (metrics.final_success_without as number),
      12,
    );
    // The final metrics are the last validation's (after step 3), not the step-0 one.
    const withSkill = validation.filter((t) => t.condition === 1 && t.id.startsWith('v3/'));
    const successRate = (ts: Trajectory[]) => ts.filter((t) => t.verdict.passed).length / ts.length;
    // 6 validation tasks, one per family, so the per-family mean equals the plain mean.
    expect(metrics.final_success_with).toBeCloseTo(successRate(withSkill), 12);
    const withoutSkill = validation.filter((t) => t.condition === 0 && t.id.startsWith('v3/'));
    expect(metrics.final_success_without).toBeCloseTo(successRate(withoutSkill), 12);
    const summary = readJson<{ variant: string; ablation: string; curriculum: { active: string[] } }>(
      join(dir, 'summary.json'),
    );
    // The types still active are the curriculum's, as the summary stores its final state.
    expect(metrics.final_active).toBe(summary.curriculum.active.length);
    expect(summary).toMatchObject({ variant: 'skillc', ablation: 'none' });
    const manifest = readJson<{ components: Record<string, string> }>(join(dir, 'run.json'));
    expect(manifest.components).toMatchObject({ agent: 'registry:skill-reading', trainer: 'registry:tfjs' });

    // report.html was written by `run` and reads the same run: SKILLC charts with data, nothing damaged.
    expect(run.result.report).toBe(join(dir, 'report.html'));
    const report = buildReport(dir).summary;
    expect(report).toMatchObject({ status: 'completed', rollouts: 48, steps: 3, notes: [] });
    expect(report.charts.length).toBeGreaterThan(0);
    expect(readFileSync(run.result.report, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('the variant switch in the config changes the method: grpo trains without any skill', async () => {
    const path = writeTestConfig('grpo', {
      ...shortened({ variant: 'grpo', steps: 2, validateEvery: 2 }),
      name: 'grpo',
    });
    const run = await skillrl(['run', path, '--run-dir', join(TEST_RUNS, 'grpo')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const rollouts = readJsonl<Trajectory>(join(run.result.dir, 'rollouts.jsonl'));
    // 2 steps × 2 tasks × 4, plus two validations (step 0 and step 2) of 6 tasks × 2 conditions.
    expect(rollouts).toHaveLength(40);
    expect(rollouts.filter((t) => t.id.startsWith('s') && t.condition === 1)).toEqual([]);
    expect(readJson<{ variant: string }>(join(run.result.dir, 'summary.json')).variant).toBe('grpo');
  });
});
