import { checkSchema, createRng, type Skill, type Task, type Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createSkill0Curriculum } from '../skill0-curriculum.js';
import { createSkillcCurriculum } from '../skillc-curriculum.js';
import { createStaticCurriculum } from '../static-curriculum.js';
import { planPairedValidation, summariseValidation, validationGap } from './paired-validation.js';
import { attributionStrengthsOf, planSkillcStep, sampleStepTasks } from './plan-skillc-step.js';
import { createStepSkills, skillContexts } from './skill-contexts.js';

const skill = (name: string, families: string[], body = `### ${name} ###`): Skill => ({
  name,
  description: 'd',
  body,
  families,
});
const families = ['heat', 'cool', 'look'];
// A general file that lists every family, and own files for heat and cool (look has none).
const inventory = [skill('general', families), skill('heat-file', ['heat']), skill('cool-file', ['cool'])];
const task = (id: string, family: string): Task => ({ id, family, split: 'train', prompt: id });
const pool = Array.from({ length: 9 }, (_, i) => task(`t${i}`, families[i % 3] as string));

describe('skillContexts', () => {
  it("reads SKILL0's layout: own files, general files, and the general + own context per family", () => {
    const contexts = skillContexts(families, inventory);
    expect(contexts.files).toEqual({ heat: 'heat-file', cool: 'cool-file', look: 'general' });
    // `general` is look's most specific skill, so it is look's own file, not a general one.
    expect(contexts.general).toEqual([]);
    const withOwn = skillContexts(['heat', 'cool'], inventory);
    expect(withOwn.general).toEqual(['general']);
    expect(withOwn.full.heat?.body).toBe('### general ###\n\n### heat-file ###');
    expect(withOwn.full.heat?.name).toBe('heat-file');
    expect(skillContexts(families, []).full).toEqual({});
  });
});

describe('createStepSkills', () => {
  const contexts = skillContexts(['heat', 'cool'], inventory);
  it('SKILLC: the full context, in training only while the family is active', () => {
    const c = createSkillcCurriculum({ families: ['heat', 'cool'] });
    const skills = createStepSkills(contexts, inventory, c);
    expect(skills.current('heat')).toEqual(contexts.full.heat);
    const state = { ...c.state(), active: ['cool'] };
    expect(skills.training('heat', state)).toBeUndefined();
    expect(skills.training('cool', state)).toEqual(contexts.full.cool);
  });
  it("SKILL0: its schedule's files, for every family whatever its state", () => {
    const c = createSkill0Curriculum({
      families: ['heat', 'cool'],
      totalSteps: 10,
      d: 5,
      files: contexts.files,
      generalSkills: contexts.general,
    });
    const skills = createStepSkills(contexts, inventory, c);
    expect(skills.current('heat')?.body).toBe('### general ###\n\n### heat-file ###');
    expect(skills.training('heat', { ...c.state(), active: [] })?.name).toBe('heat-file');
  });
});

describe('planSkillcStep', () => {
  const c = createStaticCurriculum({ families, rho: 0.25, lambda: 0.5 });
  const contexts = skillContexts(['heat', 'cool'], inventory);
  const skills = createStepSkills(contexts, inventory, c);
  const input = {
    step: 3,
    pool,
    tasksPerStep: 4,
    groupSize: 4,
    state: { ...c.state(), active: ['heat', 'look'] },
    skillFor: skills.training,
    rng: createRng(5),
  };

  it('samples distinct tasks by the seed, pairs each group by ρ_k, and gives λ_k per sample', () => {
    const plan = planSkillcStep(input);
    expect(plan).toEqual(planSkillcStep({ ...input, rng: createRng(5) }));
    expect(plan.groups.map((g) => g.task)).toEqual(sampleStepTasks(pool, 4, createRng(5).fork('step:3')));
    expect(new Set(plan.groups.map((g) => g.task.id)).size).toBe(4);
    expect(plan.seed).toBe(createRng(5).seedFor('s3'));
    for (const group of plan.groups) {
      if (group.task.family === 'heat') expect(group).toMatchObject({ skill: contexts.full.heat, rho: 0.25 });
      // cool is retired here; look has no skill of its own: both run without, ρ = 0.
      else expect(group).toEqual({ task: group.task, rho: 0 });
    }
    expect(plan.lambda).toEqual({ heat: 0.5, cool: 0, look: 0.5 });
    expect(attributionStrengthsOf(plan, ['heat', 'cool', 'look', 'unknown'])).toEqual([0.5, 0, 0.5, 0]);
  });

  it('no pairing: each group runs under one condition, with the skill with probability ρ_k', () => {
    const many = Array.from({ length: 60 }, (_, i) => task(`h${i}`, 'heat'));
    const plan = planSkillcStep({ ...input, pool: many, tasksPerStep: 60, pairing: false });
    const withSkill = plan.groups.filter((g) => g.skill);
    for (const g of plan.groups) expect(g.rho).toBe(g.skill ? 1 : 0);
    // ρ = 0.25 of 60 groups: a binomial draw, about 15.
    expect(withSkill.length).toBeGreaterThan(5);
    expect(withSkill.length).toBeLessThan(25);
  });

  it('takes the whole pool when it is smaller than a step, and names a bad step', () => {
    expect(sampleStepTasks(pool.slice(0, 2), 5, createRng(1))).toHaveLength(2);
    expect(() => planSkillcStep({ ...input, step: 0 })).toThrow(/step/);
  });
});

describe('paired validation', () => {
  it('plans every task twice `episodes` times, half with its skill', () => {
    const heat = skill('heat-file', ['heat']);
    const plan = planPairedValidation({
      tasks: [task('a', 'heat'), task('b', 'look')],
      skillFor: (f) => (f === 'heat' ? heat : undefined),
      episodes: 2,
      seed: 9,
    });
    expect(plan).toEqual({
      groups: [
        { task: task('a', 'heat'), skill: heat, rho: 0.5 },
        { task: task('b', 'look'), rho: 0.5 },
      ],
      groupSize: 4,
      seed: 9,
    });
  });

  const run = (family: string, condition: 0 | 1, passed: boolean): Trajectory => ({
    id: `${family}-${condition}`,
    taskId: family,
    family,
    condition,
    steps: [],
    reward: passed ? 1 : 0,
    verdict: { score: passed ? 1 : 0, passed },
  });

  it('summariseValidation: success rates per family and condition', () => {
    const v = summariseValidation(10, [
      run('heat', 1, true),
      run('heat', 1, true),
      run('heat', 1, false),
      run('heat', 0, true),
      run('heat', 0, false),
      run('cool', 0, true),
    ]);
    // heat: with 2/3, without 1/2. cool has no z=1 run: withSkillEpisodes 0 (no evidence on that side), and
    // "with" repeats its skill-free rate 1/1 as a placeholder.
    expect(v).toEqual({
      step: 10,
      families: {
        cool: { withSkill: 1, withoutSkill: 1, withSkillEpisodes: 0, withoutSkillEpisodes: 1, episodes: 1 },
        heat: {
          withSkill: 2 / 3,
          withoutSkill: 0.5,
          withSkillEpisodes: 3,
          withoutSkillEpisodes: 2,
          episodes: 5,
        },
      },
    });
    // The gap counts heat alone: cool's with-skill side is no evidence.
    expect(validationGap(v)).toEqual({
      step: 10,
      withSkill: 2 / 3,
      withoutSkill: 0.5,
      gap: 2 / 3 - 0.5,
      families: 1,
    });
    expect(validationGap(summariseValidation(0, [run('cool', 0, true)]))).toEqual({
      step: 0,
      withSkill: null,
      withoutSkill: null,
      gap: null,
      families: 0,
    });
  });

  it('summariseValidation counts every episode once, on its own side, and validates against the schema', () => {
    const runs = [run('a', 1, false), run('a', 0, false), run('b', 1, true), run('b', 1, false)];
    const v = summariseValidation(0, runs);
    for (const f of Object.values(v.families)) {
      expect(f.withSkillEpisodes + f.withoutSkillEpisodes).toBe(f.episodes);
    }
    expect(v.families.a).toMatchObject({ withSkillEpisodes: 1, withoutSkillEpisodes: 1 });
    // b ran no skill-free episode: its without side is no evidence either.
    expect(v.families.b).toMatchObject({ withSkill: 0.5, withoutSkill: 0, withoutSkillEpisodes: 0 });
    expect(checkSchema('validation-result', v)).toEqual([]);
  });
});
