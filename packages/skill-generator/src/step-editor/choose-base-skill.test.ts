import type { GenerationRecord, Skill } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { chooseBaseSkill, skillEvidence } from './choose-base-skill.js';

const skill = (name: string, lines: string[]): Skill => ({
  name,
  description: `Skill ${name}.`,
  body: `# ${name}\n\n${lines.map((l, i) => `${i + 1}. ${l}`).join('\n')}\n`,
});
const s0 = skill('s0', ['Find the object.', 'Put it away.']);
// Same lines as s0 under another name (and without the period): the same skill to the evidence.
const s0Again = skill('copy', ['find the object', 'Put it away.']);
const edit = skill('edit', ['Take the object.', 'Put it away.']);
const other = skill('other', ['Put it away.']);

const history: GenerationRecord[] = [
  { generation: 0, skill: s0, reward: 0.5 },
  {
    generation: 1,
    skill: edit,
    reward: 1,
    candidates: [
      { skill: s0Again, reward: 0 },
      { skill: edit, reward: 1 },
      { skill: other, reward: 0 },
    ],
  },
];

describe('skill evidence and the base skill', () => {
  it('pools evaluations by numbered lines and shrinks toward the overall mean', () => {
    // Evaluations: s0 0.5 and 0 (two), edit 1, other 0: overall (0.5 + 0 + 1 + 0) / 4 = 0.375.
    // prior 2: s0 (0.5 + 2·0.375) / 4 = 0.3125; edit (1 + 0.75) / 3 = 0.5833; other 0.75 / 3 = 0.25.
    const e = skillEvidence(history, 2);
    expect(e.map((x) => [x.skill.name, x.count, x.mean])).toEqual([
      ['s0', 2, 0.25],
      ['edit', 1, 1],
      ['other', 1, 0],
    ]);
    expect(e.map((x) => x.score)).toEqual([0.3125, 1.75 / 3, 0.25]);
  });

  it('edits the best-scored skill, or the carried one with base "current"', () => {
    expect(chooseBaseSkill('best', edit, history, 2)).toBe(edit);
    expect(chooseBaseSkill('current', other, history, 2)).toBe(other);
    // No carried skill: the history's last.
    expect(chooseBaseSkill('current', undefined, history, 2)).toBe(edit);
    // Every evaluation at 0.5 (overall mean 0.5), prior 8:
    const mixed = structuredClone(history);
    (mixed[1] as GenerationRecord).candidates = [
      { skill: s0Again, reward: 0.5 },
      { skill: edit, reward: 0.5 },
    ];
    // s0: (0.5 + 0.5 + 8·0.5) / 10 = 0.5, edit: (0.5 + 8·0.5) / 9 = 0.5: a tie goes to the carried skill.
    expect(chooseBaseSkill('best', edit, mixed, 8)?.name).toBe('edit');
    expect(chooseBaseSkill('best', s0, mixed, 8)?.name).toBe('s0');
    expect(chooseBaseSkill('best', undefined, [], 2)).toBeUndefined();
    expect(chooseBaseSkill('best', other, [], 2)).toBe(other);
  });
});
