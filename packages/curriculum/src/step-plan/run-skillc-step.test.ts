import {
  type AdvantageBatch,
  type CurriculumController,
  type CurriculumState,
  createRng,
  InvalidArgumentError,
  type Skill,
  type Task,
  type Trajectory,
  type ValidationResult,
} from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createSkillcCurriculum } from '../skillc-curriculum.js';
import { planSkillcStep } from './plan-skillc-step.js';
import { runSkillcStep, type SkillcStepPorts, skillcValidationDue } from './run-skillc-step.js';
import { SKILLC_STEP_BATCH_FIELDS } from './step-batch-fields.js';
import { zeroUpdate } from './step-signal.js';

const families = ['heat', 'cool'];
const skill = (family: string): Skill => ({
  name: family,
  description: 'd',
  body: `do ${family}`,
  families: [family],
});
const task = (id: string, family: string): Task => ({ id, family, split: 'train', prompt: id });
const pool = Array.from({ length: 6 }, (_, i) => task(`t${i}`, families[i % 2] as string));

/** Each group's episodes: the with-skill share first, a success when it read the skill or its index is odd. */
function episodesOf(plan: Parameters<SkillcStepPorts['runEpisodes']>[0]): Trajectory[] {
  return plan.groups.flatMap((g) =>
    Array.from({ length: plan.groupSize }, (_, j) => {
      const condition = j < Math.round(g.rho * plan.groupSize) ? 1 : 0;
      const passed = condition === 1 || j % 2 === 1;
      return {
        id: `${g.task.id}:${j}`,
        taskId: g.task.id,
        family: g.task.family,
        condition,
        steps: Array.from({ length: j + 1 }, (_, index) => ({
          index,
          observation: '',
          action: 'a',
          reward: 0,
          done: false,
        })),
        reward: passed ? 1 : 0,
        verdict: { score: passed ? 1 : 0, passed },
      } as Trajectory;
    }),
  );
}

const validation = (step: number, gap: number): ValidationResult => ({
  step,
  families: Object.fromEntries(
    families.map((f) => [
      f,
      { withSkill: 0.5 + gap, withoutSkill: 0.5, withSkillEpisodes: 24, withoutSkillEpisodes: 24 },
    ]),
  ),
});

/** Ports that record the order of their calls and what each received. */
function recordingPorts() {
  const calls: string[] = [];
  const batches: AdvantageBatch[] = [];
  const stored: number[][] = [];
  const trained: number[][] = [];
  const ports: SkillcStepPorts = {
    runEpisodes: async (plan) => {
      calls.push('run');
      return episodesOf(plan);
    },
    estimate: (batch) => {
      calls.push('estimate');
      batches.push(batch);
      // An advantage that tells samples apart: its index, signed by success.
      return {
        advantages: Float64Array.from(batch.scores, (s, i) => (s > 0 ? i : -i)),
        metrics: { mean: 0.5, bad: Number.NaN },
      };
    },
    onAdvantages: (_runs, advantages) => {
      calls.push('store');
      stored.push([...advantages]);
    },
    update: async (batch) => {
      calls.push('update');
      trained.push(Array.from(batch.advantages));
      return { loss: 1 };
    },
    validate: async (step) => {
      calls.push(`validate:${step}`);
      return validation(step, 0.3);
    },
  };
  return { ports, calls, batches, stored, trained };
}

describe('runSkillcStep', () => {
  const base = { pool, tasksPerStep: 4, groupSize: 4, skillFor: (f: string) => skill(f), rng: createRng(7) };

  it('puts the curriculum state into the batch: λ_k per sample, 0 for a retired type', async () => {
    const state: CurriculumState = {
      step: 0,
      active: ['heat'],
      retired: ['cool'],
      lambda: { heat: 0.8, cool: 0.6 },
      rho: { heat: 0.5, cool: 0.5 },
    };
    const curriculum: CurriculumController = {
      name: 'fixed',
      state: () => state,
      observe: () => state,
      toJSON: () => null,
    };
    const { ports, batches } = recordingPorts();
    const out = await runSkillcStep({ ...base, step: 1, curriculum, totalSteps: 5, validateEvery: 5 }, ports);
    const batch = batches[0] as AdvantageBatch;
    expect(batch.families).toEqual(out.runs.map((r) => r.family));
    expect(batch.attributionStrengths).toEqual(out.runs.map((r) => (r.family === 'heat' ? 0.8 : 0)));
    expect(batch.conditions).toEqual(out.runs.map((r) => r.condition));
    expect(batch.groupIds).toEqual(out.runs.map((r) => r.taskId));
    expect(batch.lengths).toEqual(out.runs.map((r) => r.steps.length));
    expect(out.plan.lambda).toEqual({ heat: 0.8, cool: 0 });
    expect(out.metrics.active).toBe(1);
  });

  it('fills exactly the fields it declares (SKILLC_STEP_BATCH_FIELDS), each declared once', async () => {
    const curriculum = createSkillcCurriculum({ families, d: 5 });
    const { ports, batches } = recordingPorts();
    await runSkillcStep({ ...base, step: 1, curriculum, totalSteps: 5, validateEvery: 5 }, ports);
    const declared = SKILLC_STEP_BATCH_FIELDS.map((f) => f.field);
    expect(new Set(declared).size).toBe(declared.length);
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) expect(Object.keys(batch).sort()).toEqual([...declared].sort());
    // The method input first: an option two fields replace is reported under it.
    expect(declared[0]).toBe('attributionStrengths');
  });

  it('stores the advantages before the update, and trains on exactly those', async () => {
    const { ports, calls, stored, trained } = recordingPorts();
    const curriculum = createSkillcCurriculum({ families, d: 5 });
    const out = await runSkillcStep(
      { ...base, step: 1, curriculum, totalSteps: 20, validateEvery: 5 },
      ports,
    );
    expect(calls).toEqual(['run', 'estimate', 'store', 'update']);
    expect(stored[0]).toEqual(out.advantages);
    expect(trained[0]).toEqual(out.advantages);
    expect(out.advantages.some((a) => a < 0)).toBe(true);
    // The step's rates, from its own rollouts (the fake's with-skill episodes all succeed).
    expect(out.metrics.success_with).toBe(out.runs.some((r) => r.condition === 1) ? 1 : 0);
    const without = out.runs.filter((r) => r.condition === 0);
    expect(without.length).toBeGreaterThan(0);
    expect(out.metrics.success_without).toBe(without.filter((r) => r.reward > 0).length / without.length);
    expect(out.metrics.share_with).toBe(1 - without.length / out.runs.length);
    expect(out.estimatorMetrics).toEqual({ mean: 0.5, bad: Number.NaN });
    expect(out.trainMetrics).toEqual({ loss: 1 });
    expect(out.validation).toBeUndefined();
  });

  it('validates every d steps and after the last one; the curriculum reads only the scheduled ones', async () => {
    const curriculum = createSkillcCurriculum({ families, d: 5 });
    const seen: number[] = [];
    for (const step of [4, 5, 7]) {
      const { ports, calls } = recordingPorts();
      const before = JSON.stringify(curriculum.toJSON());
      const out = await runSkillcStep({ ...base, step, curriculum, totalSteps: 7, validateEvery: 5 }, ports);
      const after = JSON.stringify(curriculum.toJSON());
      if (out.validation) seen.push(step);
      if (step === 5) {
        expect(calls.at(-1)).toBe('validate:5');
        expect(out.validation?.observed).toBe(true);
        expect(after).not.toBe(before);
      } else if (step === 7) {
        // The last step's validation is measured, not fed to the curriculum (its schedule is every d).
        expect(out.validation?.observed).toBe(false);
        expect(after).toBe(before);
        expect(out.validation?.curriculum).toEqual(curriculum.state());
      }
    }
    expect(seen).toEqual([5, 7]);
  });

  it('refuses a validation interval that is not a positive integer, naming it', async () => {
    const { ports, calls } = recordingPorts();
    const curriculum = createSkillcCurriculum({ families });
    await expect(
      runSkillcStep({ ...base, step: 1, curriculum, totalSteps: 5, validateEvery: 0 }, ports),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      runSkillcStep({ ...base, step: 1, curriculum, totalSteps: 5, validateEvery: 0 }, ports),
    ).rejects.toThrow(/validateEvery/);
    expect(calls).toEqual([]);
  });
});

describe('skillcValidationDue', () => {
  it('is every d steps and the last step', () => {
    const due = Array.from({ length: 12 }, (_, i) => i + 1).filter((t) => skillcValidationDue(t, 5, 12));
    expect(due).toEqual([5, 10, 12]);
  });
});

describe('runSkillcStep: signal and dynamic sampling', () => {
  const base = { pool, tasksPerStep: 2, groupSize: 4, skillFor: (f: string) => skill(f), rng: createRng(7) };
  const curriculum = () => createSkillcCurriculum({ families, d: 5 });
  /** Groups of tasks in `flat` score alike (all pass); the others vary. */
  function portsWith(flat: Set<string>, train: Record<string, number> = { grad_norm: 1, episodes: 8 }) {
    const plans: { batch: number; seed: number; tasks: string[] }[] = [];
    const trained: string[][] = [];
    const ports: SkillcStepPorts = {
      runEpisodes: async (plan) => {
        plans.push({ batch: plan.batch, seed: plan.seed, tasks: plan.groups.map((g) => g.task.id) });
        return episodesOf(plan).map((t) =>
          flat.has(t.taskId) ? { ...t, reward: 1, verdict: { score: 1, passed: true } } : t,
        );
      },
      estimate: (batch) => ({ advantages: new Float64Array(batch.scores.length).fill(0.5), metrics: {} }),
      update: async (batch) => {
        trained.push([...new Set(batch.trajectories.map((t) => t.taskId))]);
        return train;
      },
      validate: async (step) => validation(step, 0),
    };
    return { ports, plans, trained };
  }

  it('batch 0 draws what a step always drew; a refill draws other tasks under its own seed', async () => {
    const state = createSkillcCurriculum({ families }).state();
    const input = { ...base, step: 3, state };
    const a = planSkillcStep(input);
    const b = planSkillcStep({ ...input, batch: 0 });
    expect(b).toEqual(a);
    const refill = planSkillcStep({ ...input, batch: 1, exclude: new Set(a.groups.map((g) => g.task.id)) });
    expect(refill.batch).toBe(1);
    expect(refill.seed).not.toBe(a.seed);
    expect(refill.groups.some((g) => a.groups.some((x) => x.task.id === g.task.id))).toBe(false);
  });

  it('without dynamic sampling, a step whose every group scored alike is void and says why', async () => {
    const { ports } = portsWith(new Set(pool.map((t) => t.id)));
    const out = await runSkillcStep(
      { ...base, step: 1, curriculum: curriculum(), totalSteps: 20, validateEvery: 5 },
      ports,
    );
    expect(out.signal).toMatchObject({ groups: 2, zeroVarianceGroups: 2, zeroUpdate: false });
    expect(out.signal.void).toMatch(/every group was zero-variance/);
    expect(out.metrics).toMatchObject({ signal_void: 1, signal_zero_variance_share: 1, signal_groups: 2 });
  });

  it('a zero update is void even when groups carried signal', async () => {
    const { ports } = portsWith(new Set(), { grad_norm: 0, episodes: 8 });
    const out = await runSkillcStep(
      { ...base, step: 1, curriculum: curriculum(), totalSteps: 20, validateEvery: 5 },
      ports,
    );
    expect(out.signal.zeroVarianceGroups).toBe(0);
    expect(out.signal.void).toMatch(/update was zero/);
    expect(out.metrics.signal_zero_update).toBe(1);
  });

  it('drops zero-variance groups and refills with fresh tasks until tasksPerStep groups carry signal', async () => {
    // The first batch's tasks score alike, so it keeps nothing and the next batch refills.
    const first = planSkillcStep({ ...base, step: 1, state: curriculum().state() });
    const flat = new Set(first.groups.map((g) => g.task.id));
    const { ports, plans, trained } = portsWith(flat);
    const out = await runSkillcStep(
      {
        ...base,
        step: 1,
        curriculum: curriculum(),
        totalSteps: 20,
        validateEvery: 5,
        dynamicSampling: { maxBatches: 4 },
      },
      ports,
    );
    expect(plans.map((p) => p.batch)).toEqual([0, 1]);
    expect(new Set(plans.map((p) => p.seed)).size).toBe(2);
    expect(out.sampling).toEqual({ batches: 2, keptGroups: 2, droppedGroups: 2 });
    expect(trained[0]).toEqual(plans[1]?.tasks);
    expect(out.runs.every((t) => !flat.has(t.taskId))).toBe(true);
    expect(out.ran).toHaveLength(16);
    expect(out.signal.void).toBeUndefined();
    expect(out.metrics).toMatchObject({ ds_batches: 2, ds_kept_groups: 2, ds_dropped_groups: 2 });
  });

  it('stops refilling at maxBatches, trains on what it kept, and a batch with nothing kept is void', async () => {
    const { ports, plans, trained } = portsWith(new Set(pool.map((t) => t.id)));
    const out = await runSkillcStep(
      {
        ...base,
        step: 1,
        curriculum: curriculum(),
        totalSteps: 20,
        validateEvery: 5,
        dynamicSampling: { maxBatches: 2 },
      },
      ports,
    );
    expect(plans).toHaveLength(2);
    expect(trained).toEqual([]);
    expect(out.sampling).toEqual({ batches: 2, keptGroups: 0, droppedGroups: 4 });
    expect(out.signal.void).toMatch(/no group to learn from/);
  });

  it('refuses maxBatches that is not a positive integer, naming it', async () => {
    const { ports, plans } = portsWith(new Set());
    await expect(
      runSkillcStep(
        {
          ...base,
          step: 1,
          curriculum: curriculum(),
          totalSteps: 20,
          validateEvery: 5,
          dynamicSampling: { maxBatches: 0 },
        },
        ports,
      ),
    ).rejects.toThrow(/dynamicSampling\.maxBatches/);
    expect(plans).toEqual([]);
  });
});

describe('zeroUpdate', () => {
  it('reads a zero gradient norm, no episode trained or no datum sent; nothing reported is not zero', () => {
    expect(zeroUpdate({ grad_norm: 0 })).toBe(true);
    expect(zeroUpdate({ episodes: 0, grad_norm: 0.2 })).toBe(true);
    expect(zeroUpdate({ datums: 0, skipped: 1 })).toBe(true);
    expect(zeroUpdate({ grad_norm: 1e-9, episodes: 4 })).toBe(false);
    expect(zeroUpdate({ loss: 0 })).toBe(false);
  });
});
