import type { Skill, Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { planSkillR1FinalEvaluation, skillR1FinalMetrics } from './skill-r1-final-evaluation.js';

const task = (id: string): Task => ({ id, family: 'f', split: 'train', prompt: id });
const skill: Skill = { name: 'carry', description: 'carried', body: 'do it' } as Skill;

let next = 0;
function run(taskId: string, condition: 0 | 1, passed: boolean, error?: string): Trajectory {
  next++;
  return {
    id: `final/${taskId}:c${condition}:i${next}`,
    taskId,
    family: 'f',
    condition,
    steps: [],
    reward: passed ? 1 : 0,
    verdict: { score: passed ? 1 : 0, passed },
    ...(error ? { error: { code: 'model', message: error } } : {}),
  } as Trajectory;
}

describe('planSkillR1FinalEvaluation', () => {
  const tasks = [task('a'), task('b')];
  const skillOf = (t: Task) => (t.id === 'a' ? skill : undefined);

  it('plans the with-skill episodes identically with or without the pairing, then the skill-free ones', () => {
    const alone = planSkillR1FinalEvaluation({ tasks, skillOf, episodes: 2, paired: false, seed: 7 });
    const paired = planSkillR1FinalEvaluation({ tasks, skillOf, episodes: 2, paired: true, seed: 7 });
    expect(alone).toHaveLength(4);
    expect(paired.slice(0, 4)).toEqual(alone);
    // Only the task that carries a skill gets skill-free episodes.
    expect(paired.slice(4).map((p) => [p.task.id, p.condition])).toEqual([
      ['a', 0],
      ['a', 0],
    ]);
  });
});

describe('skillR1FinalMetrics', () => {
  it('scores the with-skill episodes (errored ones apart) and, paired, the utility (golden)', () => {
    const runs = [
      run('a', 1, true),
      run('a', 1, false),
      run('a', 1, false, 'timeout'),
      run('a', 0, false),
      run('a', 0, false),
    ];
    const paired = skillR1FinalMetrics(runs, { paired: true, unit: 'final' });
    expect(paired).toMatchObject({
      final_eval_success: 0.5,
      final_eval_reward: 0.5,
      final_eval_episodes: 2,
      final_eval_errored: 1,
      final_without_success: 0,
    });
    expect(paired.final_utility_gap).toBeCloseTo(0.5, 12);
    // Unpaired, every run counts as with the skill and no utility is reported.
    const alone = skillR1FinalMetrics(runs, { paired: false, unit: 'final', prefix: 'heldout_' });
    expect(alone).toMatchObject({ heldout_final_eval_episodes: 4, heldout_final_eval_success: 0.25 });
    expect(alone).not.toHaveProperty('heldout_final_utility_gap');
  });
});
