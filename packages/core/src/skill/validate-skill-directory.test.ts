import { describe, expect, it } from 'vitest';
import { validateSkill } from './validate-skill.js';

const skill = {
  name: 'heat-then-place',
  description: 'Heat, then place. Use for heat tasks.',
  body: '1. Go.\n',
};

describe('validateSkill({ directory }): Agent Skills, "name must match the parent directory name"', () => {
  it('passes when the folder is named after the skill, and is not checked without a folder', () => {
    expect(validateSkill(skill, { directory: 'heat-then-place' }).ok).toBe(true);
    expect(validateSkill(skill).ok).toBe(true);
  });

  it('fails with rule name-directory, naming both', () => {
    const result = validateSkill(skill, { directory: 'heat' });
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      {
        rule: 'name-directory',
        field: 'name',
        message:
          '"heat-then-place" must match the name of the folder that holds the SKILL.md ("heat"); rename one of them',
      },
    ]);
  });
});
