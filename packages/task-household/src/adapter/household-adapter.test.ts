import { readFileSync } from 'node:fs';
import { formatSkill, type Task, type Trajectory, validate } from '@skillrl/core';
import { describeAdapterConformance } from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import household, {
  createHouseholdAdapter,
  HOUSEHOLD_FAMILIES,
  planActions,
  taskFromAlfworldGame,
} from '../index.js';

// `solve` plays the expert plan through the episode runner: the verifier must pass it as real runs record it.
describeAdapterConformance(household, {
  limit: 12,
  episodes: 6,
  solve: (task) => {
    const env = household.createEnvironment(task);
    env.reset();
    return planActions(env);
  },
});

const trajectory = (task: Task, steps: Trajectory['steps']): Trajectory => ({
  id: 't',
  taskId: task.id,
  family: task.family,
  condition: 0,
  steps,
  reward: steps.reduce((s, x) => s + x.reward, 0),
  verdict: { score: 0, passed: false },
});

describe('the household adapter', () => {
  it('loads ALFWorld-sized splits by default, balanced over the six types', () => {
    const tasks = household.load({ split: 'valid_seen' }) as Task[];
    expect(tasks).toHaveLength(140);
    for (const family of HOUSEHOLD_FAMILIES) {
      expect(tasks.filter((t) => t.family === family).length).toBeGreaterThanOrEqual(23);
    }
    expect(tasks[0]?.prompt).toMatch(/^Your task is to: .+\.$/);
    expect(tasks[0]?.metadata).toMatchObject({ source: 'generated', seed: 0, index: 0 });
  });

  it('recreates the same game from a task, and the expert plan earns a passing verdict', () => {
    const [task] = household.load({ split: 'train', limit: 1, seed: 5 }) as Task[];
    if (!task) throw new Error('no task');
    const env = household.createEnvironment(task);
    let observation = env.reset();
    const steps: Trajectory['steps'] = [];
    for (const [index, action] of planActions(env).entries()) {
      const r = env.step(action);
      // As the episode runner records a step: the environment's info under `info.env`.
      steps.push({ index, observation, action, reward: r.reward, done: r.done, info: { env: r.info ?? {} } });
      observation = r.observation;
    }
    const verdict = household.verifier(task).verify(task, trajectory(task, steps));
    expect(validate('verdict', verdict)).toMatchObject({ score: 1, passed: true });
    // Without the last step the goal is not reached.
    const partial = household.verifier(task).verify(task, trajectory(task, steps.slice(0, -1)));
    expect(partial).toMatchObject({ score: 0, passed: false });
    expect(household.verifier(task).verify(task, trajectory(task, []))).toMatchObject({
      score: 0,
      passed: false,
    });
  });

  it('runs a real game file carried by a task', () => {
    const json = readFileSync(new URL('../../fixtures/alfworld/game.tw-pddl', import.meta.url), 'utf8');
    const task = taskFromAlfworldGame(json, { id: 'fixture', split: 'valid_seen' });
    expect(validate('task', task)).toMatchObject({
      family: 'pick_heat_then_place_in_recep',
      prompt: 'Your task is to: put a hot potato in sinkbasin.',
      metadata: { source: 'alfworld', label: 'Heat' },
    });
    const env = household.createEnvironment(JSON.parse(JSON.stringify(task)));
    env.reset();
    const last = planActions(env)
      .map((a) => env.step(a))
      .at(-1);
    expect(last).toMatchObject({ reward: 1, done: true });
  });

  it('refuses tasks it did not make, naming the field', () => {
    const stranger: Task = { id: 'x', family: 'pick_and_place_simple', split: 'train', prompt: 'p' };
    expect(() => household.createEnvironment(stranger)).toThrow(/task.metadata/);
    expect(() => household.load({ split: 'test' })).toThrow(/split/);
  });

  it('ships SKILL0-style skills: general principles and a TASK section per type, every type covered', () => {
    const skills = household.skills();
    expect(skills.map((s) => s.name)).toEqual([
      'household-general',
      'household-pick',
      'household-look',
      'household-clean',
      'household-heat',
      'household-cool',
    ]);
    expect(skills[0]?.body.startsWith('### GENERAL SKILLS ###\n1. ')).toBe(true);
    expect(skills.find((s) => s.name === 'household-heat')?.body).toMatch(/^### TASK: heat ###\n1\. /);
    const covered = new Set(skills.slice(1).flatMap((s) => s.families ?? []));
    expect([...covered].sort()).toEqual([...HOUSEHOLD_FAMILIES].sort());
    expect(formatSkill(skills[4] as (typeof skills)[number])).toContain(
      'skillrl.families: pick_heat_then_place_in_recep',
    );
  });

  it('gives the step vocabulary the skill editor composes from', () => {
    const v = household.stepVocabulary();
    expect(v.pick_heat_then_place_in_recep).toEqual(
      expect.arrayContaining([
        'go to the place where the object usually is',
        'open the closed receptacle',
        'take the object',
        'heat the object with the microwave',
        'put the object in the target receptacle',
      ]),
    );
    expect(Object.keys(v).sort()).toEqual([...HOUSEHOLD_FAMILIES].sort());
  });

  it('passes options to its environments', () => {
    const adapter = createHouseholdAdapter({ maxSteps: 7, placeSpelling: 'put', defaultSeed: 9 });
    const [task] = adapter.load({ split: 'valid_unseen', limit: 1 }) as Task[];
    if (!task) throw new Error('no task');
    expect(task.id).toBe('household/valid_unseen/9/0');
    expect(adapter.createEnvironment(task).maxSteps).toBe(7);
  });
});
