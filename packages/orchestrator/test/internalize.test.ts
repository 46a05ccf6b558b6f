import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunEvent, readRunStream, type Trajectory } from '@skillrl/core';
import { withSkillCount } from '@skillrl/rollout';
import { describe, expect, it } from 'vitest';
import { internalize } from '../src/internalize/internalize.js';
import { internalizeConfig, tempDir, writeConfig } from './support.js';

async function runVariant(name: string, section: Record<string, unknown>) {
  const dir = tempDir(`int-${name}`);
  const config = internalizeConfig({ name }, section);
  const configPath = writeConfig(dir, config);
  const result = await internalize(config as never, { configPath });
  return {
    result,
    // Either layout: a stream of 1 MiB or more is gzipped into segments/ when the run closes.
    rollouts: [...readRunStream<Trajectory>(result.dir, 'rollouts')],
    events: [...readRunStream<RunEvent>(result.dir, 'events')],
  };
}

describe('internalize offline', () => {
  it('SKILLC: paired rollouts by ρ_k, validation every d steps feeding the curriculum', async () => {
    const { result, rollouts, events } = await runVariant('skillc', {});
    const train = rollouts.filter((r) => r.id.startsWith('s'));
    // 4 steps × 3 tasks × group of 4
    expect(train).toHaveLength(48);
    // The first validation runs at step 0, before any update; step 1 pairs rollouts by the ρ_k it gave.
    const validations = events.filter((e) => e.type === 'validation');
    expect(validations.map((v) => v.step)).toEqual([0, 2, 4]);
    const first = validations[0]?.type === 'validation' ? validations[0].curriculum : undefined;
    expect(first?.step).toBe(0);
    const step1 = train.filter((r) => r.id.startsWith('s1/'));
    for (const taskId of new Set(step1.map((r) => r.taskId))) {
      const group = step1.filter((r) => r.taskId === taskId);
      const family = group[0]?.family as string;
      const rho = first?.active.includes(family) ? (first.rho[family] as number) : 0;
      expect(group.filter((r) => r.condition === 1)).toHaveLength(withSkillCount(rho, 4));
    }
    expect(rollouts.filter((r) => r.id.startsWith('v0/'))).toHaveLength(12);
    // Paired validation: every validation task ran once with and once without its skill.
    const v2 = rollouts.filter((r) => r.id.startsWith('v2/'));
    expect(v2).toHaveLength(12);
    expect(v2.filter((r) => r.condition === 1)).toHaveLength(6);
    expect(events.filter((e) => e.type === 'step')).toHaveLength(4);
    // The final metrics are the last validation's (v4), recomputed here from its rollouts: per family, then
    // averaged over families.
    const v4 = rollouts.filter((r) => r.id.startsWith('v4/'));
    const rateOf = (xs: typeof v4) => xs.filter((r) => r.verdict.passed).length / xs.length;
    const fams = [...new Set(v4.map((r) => r.family))];
    const byFamily = (condition: number) =>
      fams.reduce((a, f) => a + rateOf(v4.filter((r) => r.family === f && r.condition === condition)), 0) /
      fams.length;
    expect(result.metrics.final_success_without).toBeCloseTo(byFamily(0), 12);
    expect(result.metrics.final_success_with).toBeCloseTo(byFamily(1), 12);
    expect(result.metrics.final_gap).toBeCloseTo(byFamily(1) - byFamily(0), 12);
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
    // The curriculum saw only the validations (step 0, before any update, then every d = 2 steps).
    expect(events.filter((e) => e.type === 'validation').map((e) => e.step)).toEqual([0, 2, 4]);
    const families = new Set(test.map((r) => r.family));
    let without = 0;
    for (const family of families) {
      const mine = test.filter((r) => r.family === family && r.condition === 0);
      const rate = mine.filter((r) => r.verdict.passed).length / mine.length;
      expect(result.metrics[`test_without_${family}`]).toBeCloseTo(rate, 12);
      without += rate;
    }
    expect(result.metrics.test_success_without).toBeCloseTo(without / families.size, 12);
    // summary.json keeps each test task's success per side, so two runs pair task by task.
    const summary = JSON.parse(readFileSync(join(result.dir, 'summary.json'), 'utf8')) as {
      testOutcomes: Record<string, { with: number | null; without: number | null }>;
    };
    expect(Object.keys(summary.testOutcomes).sort()).toEqual([...new Set(test.map((r) => r.taskId))].sort());
    for (const [taskId, o] of Object.entries(summary.testOutcomes)) {
      const side = (z: number) => test.filter((r) => r.taskId === taskId && r.condition === z);
      const rate = (z: number) => side(z).filter((r) => r.verdict.passed).length / side(z).length;
      expect(o.without).toBe(rate(0));
      expect(o.with).toBe(side(1).length > 0 ? rate(1) : null);
    }
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

  it('skill0 as its code does it: general + task sections, one file for Pick and Pick2, M counting files', async () => {
    // 12 steps, a validation every 2: six validations, two per phase of max_set_schedule [6, 3, 0]. As in
    // curriculum_skill_manager.get_current_max_set, the validation after step t picks M by the phase of
    // ((t − 1) // d) // 2, and its set holds until the next one: M = 6 for steps 1–6 (validations 0, 2, 4),
    // 3 for steps 7–10 (validations 6, 8), 0 for steps 11–12 (validation 10).
    const { rollouts, events } = await runVariant('skill0-wiring', {
      variant: 'skill0',
      steps: 12,
      tasksPerStep: 6,
      curriculum: { maxSetSchedule: [6, 3, 0] },
    });
    const sectionsOf = (r: Trajectory) => (r.steps[0]?.info?.skillSections as string[] | undefined) ?? [];
    const stepOf = (r: Trajectory) => Number(/^s(\d+)\//.exec(r.id)?.[1]);
    const train = rollouts.filter((r) => r.id.startsWith('s'));
    const ownSection: Record<string, string> = {
      pick_and_place_simple: '### TASK: pick ###',
      pick_two_obj_and_place: '### TASK: pick ###',
      look_at_obj_in_light: '### TASK: look ###',
      pick_clean_then_place_in_recep: '### TASK: clean ###',
      pick_heat_then_place_in_recep: '### TASK: heat ###',
      pick_cool_then_place_in_recep: '### TASK: cool ###',
    };
    const activeAt = (step: number) => {
      const v = events.find((e) => e.type === 'validation' && e.step === step);
      return new Set(v?.type === 'validation' ? v.curriculum?.active : []);
    };
    // Phase 1 (M = 6: the general file + up to all 5 task files): every prompt carries GENERAL SKILLS, and
    // its own section exactly when its file survived the step-0 validation (Δ ≥ 0); Pick2 the pick file.
    const phase1 = train.filter((r) => stepOf(r) <= 6);
    expect(new Set(phase1.map((r) => r.family)).size).toBe(6);
    for (const r of phase1) {
      // The set in force at step s is the one the validation before it chose.
      const active = activeAt(2 * Math.floor((stepOf(r) - 1) / 2));
      expect(r.condition).toBe(1);
      const own = active.has(r.family) ? [ownSection[r.family]] : [];
      expect(sectionsOf(r)).toEqual(['### GENERAL SKILLS ###', ...own]);
    }
    // One file for Pick and Pick2: both have it or neither does.
    for (const step of [0, 2, 4, 6, 8]) {
      expect(activeAt(step).has('pick_and_place_simple')).toBe(activeAt(step).has('pick_two_obj_and_place'));
    }
    // Phase 2 (M = 3): the general file + at most two task files; the others carry general only.
    const phase2 = train.filter((r) => stepOf(r) >= 7 && stepOf(r) <= 10);
    expect(phase2.length).toBeGreaterThan(0);
    for (const steps of [
      [7, 8],
      [9, 10],
    ]) {
      const mine = phase2.filter((r) => steps.includes(stepOf(r)));
      const files = new Set(mine.flatMap(sectionsOf).filter((s) => s.startsWith('### TASK')));
      expect(files.size).toBeLessThanOrEqual(2);
      for (const r of mine) expect(sectionsOf(r)[0]).toBe('### GENERAL SKILLS ###');
    }
    // Phase 3 (M = 0): the hard switch, no skill anywhere.
    const phase3 = train.filter((r) => stepOf(r) >= 11);
    expect(phase3.length).toBeGreaterThan(0);
    expect(phase3.every((r) => r.condition === 0 && sectionsOf(r).length === 0)).toBe(true);
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
