import { createEstimator } from '@skillrl/advantage';
import {
  type AdvantageBatch,
  createRng,
  type Skill,
  type Task,
  type TrainBatch,
  type Trajectory,
  type ValidationResult,
} from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSkillcCurriculum } from '../skillc-curriculum.js';
import { summariseValidation } from './paired-validation.js';
import type { SkillcStepPlan } from './plan-skillc-step.js';
import { runSkillcStep, type SkillcStepPorts } from './run-skillc-step.js';

const families = ['heat', 'cool', 'look'];
const skill = (family: string): Skill => ({
  name: family,
  description: 'd',
  body: `do ${family}`,
  families: [family],
});
const task = (id: string, family: string): Task => ({ id, family, split: 'train', prompt: id });
const pool = Array.from({ length: 9 }, (_, i) => task(`t${i}`, families[i % 3] as string));

/**
 * A plan's episodes with outcomes drawn from `seed` (the same episode always gets the same outcome), the
 * with-skill share first, observations that repeat across a group so GiGPO-style step keys form groups.
 */
function episodesOf(
  plan: SkillcStepPlan | { groups: SkillcStepPlan['groups']; groupSize: number },
  seed: number,
) {
  return plan.groups.flatMap((g) =>
    Array.from({ length: plan.groupSize }, (_, j): Trajectory => {
      const id = `${g.task.id}:${j}`;
      const rng = createRng(seed).fork(id);
      const condition = j < Math.round(g.rho * plan.groupSize) ? 1 : 0;
      const passed = rng.float() < (condition === 1 ? 0.7 : 0.35);
      const length = 1 + Math.floor(rng.float() * 4);
      return {
        id,
        taskId: g.task.id,
        family: g.task.family,
        condition,
        steps: Array.from({ length }, (_, index) => ({
          index,
          observation: `room ${index} ${rng.float() < 0.5 ? 'a' : 'b'}`,
          action: 'a',
          reward: passed && index === length - 1 ? 1 : 0,
          done: index === length - 1,
        })),
        reward: passed ? 1 : 0,
        verdict: { score: passed ? 1 : 0, passed },
      };
    }),
  );
}

/** What an errored copy of a rollout looks like: a placeholder reward of 0, whatever it would have scored. */
const errored = (t: Trajectory): Trajectory => ({
  ...t,
  steps: t.steps.slice(0, 1),
  reward: 0,
  verdict: { score: 0, passed: false, reason: 'episode did not finish (model): 503' },
  error: { code: 'model', message: 'APIError: 503 upstream overloaded' },
});

interface Recorded {
  batches: AdvantageBatch[];
  stored: { ids: string[]; advantages: number[] }[];
  trained: { ids: string[]; advantages: number[]; stepAdvantages?: unknown }[];
  validations: ValidationResult[];
}

/**
 * One SKILLC step with a validation, where `inject(id)` decides which rollouts error: `mode` `error` marks
 * them errored (what a failed call leaves), `remove` leaves them out (what the step must reduce that to).
 */
async function stepWith(
  estimator: string,
  seed: number,
  inject: (id: string) => boolean,
  mode: 'error' | 'remove',
) {
  const curriculum = createSkillcCurriculum({ families, d: 1 });
  const recorded: Recorded = { batches: [], stored: [], trained: [], validations: [] };
  const apply = (runs: Trajectory[]) =>
    mode === 'error' ? runs.map((t) => (inject(t.id) ? errored(t) : t)) : runs.filter((t) => !inject(t.id));
  const ports: SkillcStepPorts = {
    runEpisodes: async (plan) => apply(episodesOf(plan, seed)),
    estimate: (batch) => {
      recorded.batches.push(batch);
      return createEstimator(estimator).estimate(batch);
    },
    onAdvantages: (runs, advantages) => {
      recorded.stored.push({ ids: runs.map((r) => r.id), advantages: [...advantages] });
    },
    update: async (batch: TrainBatch) => {
      recorded.trained.push({
        ids: batch.trajectories.map((t) => t.id),
        advantages: Array.from(batch.advantages),
        ...(batch.stepAdvantages ? { stepAdvantages: batch.stepAdvantages } : {}),
      });
      return { grad_norm: 1, episodes: batch.trajectories.length };
    },
    validate: async (step) => {
      const plan = {
        groups: pool.map((t) => ({ task: t, skill: skill(t.family), rho: 0.5 })),
        groupSize: 8,
      };
      const v = summariseValidation(
        step,
        apply(episodesOf(plan, seed + 1)).map((t) => ({ ...t, id: `v:${t.id}` })),
      );
      recorded.validations.push(v);
      return v;
    },
  };
  const out = await runSkillcStep(
    {
      step: 1,
      pool,
      tasksPerStep: 6,
      groupSize: 8,
      curriculum,
      skillFor: (f) => skill(f),
      rng: createRng(11),
      totalSteps: 1,
      validateEvery: 1,
    },
    ports,
  );
  return { out, recorded, curriculum: curriculum.toJSON() };
}

/**
 * Validation results with the errored counts set aside, the only thing injecting errors may add (a family
 * whose every episode errored is there with no episode on either side: no evidence, and its count).
 */
const withoutErroredCounts = (v: ValidationResult): ValidationResult => ({
  step: v.step,
  families: Object.fromEntries(
    Object.entries(v.families)
      .filter(([, r]) => r.withSkillEpisodes + r.withoutSkillEpisodes > 0)
      .map(([f, r]) => {
        const { erroredEpisodes: _, ...rest } = r;
        return [f, rest];
      }),
  ),
});

describe('errored rollouts in a SKILLC step (property)', () => {
  it.each(['skillc', 'grpo', 'rloo', 'd2skill-mixed'])(
    '%s: errors injected into any share of the rollouts change nothing but removing those samples',
    async (estimator) => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 1_000 }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.integer({ min: 0, max: 1_000 }),
          async (seed, share, maskSeed) => {
            const inject = (id: string) => createRng(maskSeed).fork(id).float() < share;
            const a = await stepWith(estimator, seed, inject, 'error');
            const b = await stepWith(estimator, seed, inject, 'remove');
            // The estimate: the same batch, the same advantages, the same estimator metrics (SKILLC's gap).
            expect(a.recorded.batches).toEqual(b.recorded.batches);
            expect(a.out.advantages).toEqual(b.out.advantages);
            expect(a.out.estimatorMetrics).toEqual(b.out.estimatorMetrics);
            // What is stored for a replay and what is trained: the same rows.
            expect(a.recorded.stored).toEqual(b.recorded.stored);
            expect(a.recorded.trained).toEqual(b.recorded.trained);
            // The validation's rates and counts, the gap the curriculum reads, and its state after reading it.
            expect(a.recorded.validations.map(withoutErroredCounts)).toEqual(b.recorded.validations);
            expect(a.curriculum).toEqual(b.curriculum);
            // The step's own rates; only the errored count tells the two apart.
            const { rollouts_errored: errors, ...rest } = a.out.metrics;
            const { rollouts_errored: none, ...same } = b.out.metrics;
            expect(rest).toEqual(same);
            expect(none).toBe(0);
            expect(errors).toBe(a.out.errored.length);
            expect(a.out.errored.every((t) => inject(t.id))).toBe(true);
            // Nothing errored is ever trained.
            expect(a.recorded.trained.flatMap((r) => r.ids).some(inject)).toBe(false);
          },
        ),
        { numRuns: 25 },
      );
    },
  );

  it('counts the errored episodes of a validation per family, beside rates that ignore them', () => {
    const runs = episodesOf(
      { groups: [{ task: task('x', 'heat'), skill: skill('heat'), rho: 0.5 }], groupSize: 4 },
      3,
    );
    const v = summariseValidation(1, [...runs, errored({ ...(runs[0] as Trajectory), id: 'e1' })]);
    const clean = summariseValidation(1, runs);
    expect(v.families.heat?.erroredEpisodes).toBe(1);
    expect(clean.families.heat?.erroredEpisodes).toBeUndefined();
    expect(withoutErroredCounts(v)).toEqual(clean);
  });
});
