import { checkSchema, type Trajectory } from '@skillrl/core';
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
  });

  it('counts every episode once, on its own side, and validates against the schema', () => {
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

describe('familySkills', () => {
  it('prefers the most specific skill that lists the family', () => {
    const general = { name: 'general', description: 'd', body: 'b', families: ['a', 'b', 'c'] };
    const ab = { name: 'ab', description: 'd', body: 'b', families: ['a', 'b'] };
    const a = { name: 'a-only', description: 'd', body: 'b', families: ['a'] };
    expect(familySkills(['a', 'b', 'c', 'd'], [general, ab, a])).toEqual({ a, b: ab, c: general });
  });
});
