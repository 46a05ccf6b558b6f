import type { Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { familySkills } from './family-skills.js';
import { summariseValidation } from './paired-validation.js';

const run = (family: string, condition: 0 | 1, passed: boolean): Trajectory => ({
  id: `${family}-${condition}`,
  taskId: family,
  family,
  condition,
  steps: [],
  reward: passed ? 1 : 0,
  verdict: { score: passed ? 1 : 0, passed },
});

describe('summariseValidation', () => {
  it('success rates per family and condition', () => {
    const v = summariseValidation(10, [
      run('heat', 1, true),
      run('heat', 1, true),
      run('heat', 1, false),
      run('heat', 0, true),
      run('heat', 0, false),
      run('cool', 0, true),
    ]);
    // heat: with 2/3, without 1/2; cool has no z=1 run, so "with" reports its skill-free rate 1/1.
    expect(v).toEqual({
      step: 10,
      families: {
        cool: { withSkill: 1, withoutSkill: 1, episodes: 1 },
        heat: { withSkill: 2 / 3, withoutSkill: 0.5, episodes: 5 },
      },
    });
  });
});

describe('familySkills', () => {
  it('prefers the most specific skill that lists the family', () => {
    const general = { name: 'general', description: 'd', body: 'b', families: ['a', 'b', 'c'] };
    const ab = { name: 'ab', description: 'd', body: 'b', families: ['a', 'b'] };
    const a = { name: 'a-only', description: 'd', body: 'b', families: ['a'] };
    expect(familySkills(['a', 'b', 'c', 'd'], [general, ab, a])).toEqual({ a, b: ab, c: general });
  });
});
