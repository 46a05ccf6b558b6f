import { describe, expect, it } from 'vitest';
import type { Skill } from '../contracts/skill.js';
import { skillForFamily } from './skill-for-family.js';

const skill = (name: string, families?: string[]): Skill => ({
  name,
  description: 'd',
  body: 'b',
  ...(families ? { families } : {}),
});

describe('skillForFamily', () => {
  it('prefers the skill that lists the fewest families, the earliest on ties', () => {
    const general = skill('general', ['a', 'b', 'c']);
    const ab = skill('ab', ['a', 'b']);
    const a = skill('a-only', ['a']);
    const alsoA = skill('also-a', ['a']);
    const bank = [general, ab, a, alsoA, skill('none')];
    expect(skillForFamily(bank, 'a')).toBe(a);
    expect(skillForFamily(bank, 'b')).toBe(ab);
    expect(skillForFamily(bank, 'c')).toBe(general);
    expect(skillForFamily(bank, 'd')).toBeUndefined();
    expect(skillForFamily([], 'a')).toBeUndefined();
  });
});
