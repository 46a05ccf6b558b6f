import type { Skill, Task } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT, renderSystemPrompt } from './system-prompt.js';

const task: Task = { id: 't1', family: 'pick', split: 'train', prompt: 'Put the apple in the fridge.' };
const skill: Skill = {
  name: 'pick-and-place',
  description: 'Move one object.',
  body: '1. Find it.\n2. Take it.',
};

describe('renderSystemPrompt', () => {
  it('injects the skill under condition 1 and nothing else differs under condition 0', () => {
    const withSkill = renderSystemPrompt(DEFAULT_SYSTEM_PROMPT, { task, skill, condition: 1, mode: 'text' });
    const without = renderSystemPrompt(DEFAULT_SYSTEM_PROMPT, { task, skill, condition: 0, mode: 'text' });
    expect(withSkill).toContain('<skill name="pick-and-place">');
    expect(withSkill).toContain('1. Find it.\n2. Take it.');
    expect(without).not.toContain('Find it');
    expect(without).not.toMatch(/\n{3,}/);
    // Removing the skill block (and the blank line after it) from the condition-1 prompt gives condition 0.
    const block = withSkill.slice(withSkill.indexOf('Follow this skill'), withSkill.indexOf('</skill>') + 9);
    expect(withSkill.replace(`${block}\n`, '')).toBe(without);
  });

  it('uses a replaced template and skill template', () => {
    const text = renderSystemPrompt(
      'Family {{family}}. {{skill}}',
      { task, skill, condition: 1, mode: 'tools' },
      'SKILL {{name}}: {{body}}',
    );
    expect(text).toBe('Family pick. SKILL pick-and-place: 1. Find it.\n2. Take it.');
    expect(renderSystemPrompt((input) => `c=${input.condition}`, { task, condition: 0, mode: 'text' })).toBe(
      'c=0',
    );
  });
});
