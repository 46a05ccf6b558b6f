import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent, Trajectory } from '@skillrl/core';
import { withSkillCount } from '@skillrl/rollout';
import { describe, expect, it } from 'vitest';
import { internalize } from '../src/internalize/internalize.js';
import { internalizeConfig, tempDir, writeConfig } from './support.js';

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

async function runVariant(name: string, section: Record<string, unknown>) {
  const dir = tempDir(`int-${name}`);
  const config = internalizeConfig({ name }, section);
  const configPath = writeConfig(dir, config);
  const result = await internalize(config as never, { configPath });
  return {
    result,
    rollouts: readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl')),
    events: readJsonl<RunEvent>(join(result.dir, 'events.jsonl')),
  };
}

describe('internalize offline', () => {
  it('SKILLC: paired rollouts by ρ_k, validation every d steps feeding the curriculum', async () => {
    const { result, rollouts, events } = await runVariant('skillc', {});
    const train = rollouts.filter((r) => r.id.startsWith('s'));
    // 4 steps × 3 tasks × group of 4
    expect(train).toHaveLength(48);
    // Before the first validation every family has ρ = ρ_max = 0.5: two of four rollouts carry the skill.
    const step1 = train.filter((r) => r.id.startsWith('s1/'));
    for (const taskId of new Set(step1.map((r) => r.taskId))) {
      const group = step1.filter((r) => r.taskId === taskId);
      expect(group.filter((r) => r.condition === 1)).toHaveLength(withSkillCount(0.5, 4));
    }
    const validations = events.filter((e) => e.type === 'validation');
    expect(validations.map((v) => v.step)).toEqual([2, 4]);
    // Paired validation: every validation task ran once with and once without its skill.
    const v2 = rollouts.filter((r) => r.id.startsWith('v2/'));
    expect(v2).toHaveLength(12);
    expect(v2.filter((r) => r.condition === 1)).toHaveLength(6);
    expect(events.filter((e) => e.type === 'step')).toHaveLength(4);
    expect(result.metrics.final_success_without).toBeGreaterThanOrEqual(0);
    const summary = JSON.parse(readFileSync(join(result.dir, 'summary.json'), 'utf8'));
    expect(summary.curriculum.step).toBe(4);
  });

  it('test: held-out tasks run once after training, with and without skills, unseen by the curriculum', async () => {
    const { result, rollouts, events } = await runVariant('heldout', {
      test: { split: 'valid_unseen', limit: 6 },
      testEpisodes: 2,
    });
    const test = rollouts.filter((r) => r.id.startsWith('test/'));
    // 6 tasks × 2 episodes × 2 conditions, after every training and validation rollout.
    expect(test).toHaveLength(24);
    expect(test.filter((r) => r.condition === 1)).toHaveLength(12);
    expect(rollouts.slice(-24).every((r) => r.id.startsWith('test/'))).toBe(true);
    const validationTasks = new Set(rollouts.filter((r) => r.id.startsWith('v')).map((r) => r.taskId));
    expect(test.some((r) => validationTasks.has(r.taskId))).toBe(false);
    // The curriculum saw only the two validations.
    expect(events.filter((e) => e.type === 'validation').map((e) => e.step)).toEqual([2, 4]);
    const families = new Set(test.map((r) => r.family));
    let without = 0;
    for (const family of families) {
      const mine = test.filter((r) => r.family === family && r.condition === 0);
      const rate = mine.filter((r) => r.verdict.passed).length / mine.length;
      expect(result.metrics[`test_without_${family}`]).toBeCloseTo(rate, 12);
      without += rate;
    }
    expect(result.metrics.test_success_without).toBeCloseTo(without / families.size, 12);
  });

  it('grpo baseline: no skill anywhere in training', async () => {
    const { rollouts } = await runVariant('grpo', { variant: 'grpo' });
    expect(rollouts.filter((r) => r.id.startsWith('s')).every((r) => r.condition === 0)).toBe(true);
  });

  it('skill0 baseline: single-condition groups', async () => {
    const { rollouts } = await runVariant('skill0', { variant: 'skill0' });
    const train = rollouts.filter((r) => r.id.startsWith('s'));
    for (const group of new Set(train.map((r) => r.groupId))) {
      const conditions = new Set(train.filter((r) => r.groupId === group).map((r) => r.condition));
      expect(conditions.size).toBe(1);
    }
    expect(train.some((r) => r.condition === 1)).toBe(true);
  });

  it('d2skill-mixed: half of each group with the skill, scored by d2skill-mixed', async () => {
    const { rollouts, events } = await runVariant('d2skill', { variant: 'd2skill-mixed' });
    const train = rollouts.filter((r) => r.id.startsWith('s1/'));
    for (const group of new Set(train.map((r) => r.groupId))) {
      expect(train.filter((r) => r.groupId === group && r.condition === 1)).toHaveLength(2);
    }
    expect(events.find((e) => e.type === 'run:start')).toMatchObject({ method: 'internalize:d2skill-mixed' });
  });

  it('no-pairing ablation: each group runs under one condition', async () => {
    const { rollouts } = await runVariant('nopair', { ablation: 'no-pairing' });
    const train = rollouts.filter((r) => r.id.startsWith('s'));
    for (const group of new Set(train.map((r) => r.groupId))) {
      expect(new Set(train.filter((r) => r.groupId === group).map((r) => r.condition)).size).toBe(1);
    }
  });

  it('fixed-rho ablation keeps ρ = 0.5 after validations', async () => {
    const { events } = await runVariant('fixedrho', { ablation: 'fixed-rho', curriculum: { tau: -1 } });
    const v = events.filter((e) => e.type === 'validation');
    for (const e of v) {
      if (e.type !== 'validation' || !e.curriculum) throw new Error('expected curriculum state');
      for (const f of e.curriculum.active) expect(e.curriculum.rho[f]).toBe(0.5);
    }
  });
});
