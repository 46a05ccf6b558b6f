import { rolloutErrored, type Skill, type Task, type Trajectory, type ValidationResult } from '@skillrl/core';
import type { GroupPlan } from './plan-skillc-step.js';

export interface PairedValidationInput {
  tasks: readonly Task[];
  /** The with-skill context of each family's prompt (`createStepSkills(...).current`). */
  skillFor: (family: string) => Skill | undefined;
  /** Episodes per task and side. */
  episodes: number;
  seed: number;
}

/**
 * Paired validation: every task runs `episodes` times with its family's skill and `episodes` times without
 * (a family without a skill runs all of them without). Plain data for rollout's planner, as a step's plan.
 */
export function planPairedValidation(input: PairedValidationInput): GroupPlan {
  return {
    groups: input.tasks.map((task) => {
      const skill = input.skillFor(task.family);
      return skill ? { task, skill, rho: 0.5 } : { task, rho: 0.5 };
    }),
    groupSize: 2 * input.episodes,
    seed: input.seed,
  };
}

/**
 * Success rate and episode count per family and side. A family without a skill ran no with-skill episodes:
 * `withSkillEpisodes` is 0 and `withSkill` repeats its skill-free rate as a placeholder, so readers of rates
 * alone see a zero gap while a curriculum sees that side as no evidence. Episodes that ended in an error
 * measured nothing (core's errored-rollout policy): they are in neither rate nor count, only in
 * `erroredEpisodes`, so an API hiccup on one side cannot move the gap the curriculum reads.
 */
export function summariseValidation(step: number, runs: readonly Trajectory[]): ValidationResult {
  const acc = new Map<string, { w: number; wn: number; o: number; on: number; e: number }>();
  for (const t of runs) {
    let a = acc.get(t.family);
    if (!a) {
      a = { w: 0, wn: 0, o: 0, on: 0, e: 0 };
      acc.set(t.family, a);
    }
    if (rolloutErrored(t)) {
      a.e++;
    } else if (t.condition === 1) {
      a.wn++;
      if (t.verdict.passed) a.w++;
    } else {
      a.on++;
      if (t.verdict.passed) a.o++;
    }
  }
  const families: ValidationResult['families'] = {};
  for (const [family, a] of [...acc.entries()].sort(([x], [y]) => x.localeCompare(y))) {
    const without = a.on ? a.o / a.on : 0;
    families[family] = {
      withSkill: a.wn ? a.w / a.wn : without,
      withoutSkill: without,
      withSkillEpisodes: a.wn,
      withoutSkillEpisodes: a.on,
      episodes: a.wn + a.on,
      ...(a.e > 0 ? { erroredEpisodes: a.e } : {}),
    };
  }
  return { step, families };
}

/** A validation's mean gap over the families measured on both sides (`gapByStep` in a run's summary). */
export interface ValidationGap {
  step: number;
  withSkill: number | null;
  withoutSkill: number | null;
  gap: number | null;
  /** Families measured on both sides; 0 (and nulls) when none was. */
  families: number;
}

/**
 * A validation's mean with- and without-skill success over the families measured on both sides (a family
 * whose with-skill side ran no episode — no skill, or none active under SKILL0 — has no gap to report).
 */
export function validationGap(v: ValidationResult): ValidationGap {
  const measured = Object.values(v.families).filter(
    (f) => f.withSkillEpisodes > 0 && f.withoutSkillEpisodes > 0,
  );
  if (measured.length === 0)
    return { step: v.step, withSkill: null, withoutSkill: null, gap: null, families: 0 };
  const withSkill = measured.reduce((a, f) => a + f.withSkill, 0) / measured.length;
  const withoutSkill = measured.reduce((a, f) => a + f.withoutSkill, 0) / measured.length;
  return { step: v.step, withSkill, withoutSkill, gap: withSkill - withoutSkill, families: measured.length };
}
