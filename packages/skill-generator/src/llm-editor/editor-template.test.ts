import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EDITOR_TEMPLATE,
  EDITOR_PLACEHOLDERS,
  renderEditorTemplate,
  resolveEditorTemplate,
} from './editor-template.js';

const values = {
  'task.id': 't-1',
  'task.family': 'heat',
  'task.prompt': 'Heat a mug, then {{history}}.',
  generation: '2',
  currentSkill: 'SKILL',
  history: 'HISTORY',
  rejections: '',
};

describe('editor template', () => {
  it('uses only known placeholders in the default, and every one of them', () => {
    const used = new Set(
      [...`${DEFAULT_EDITOR_TEMPLATE.system}${DEFAULT_EDITOR_TEMPLATE.user}`.matchAll(/\{\{(.+?)\}\}/g)].map(
        (m) => m[1],
      ),
    );
    expect([...used].sort()).toEqual([...EDITOR_PLACEHOLDERS].filter((p) => p !== 'task.id').sort());
    expect(resolveEditorTemplate()).toEqual(DEFAULT_EDITOR_TEMPLATE);
  });

  it('completes a partial template from the default', () => {
    expect(resolveEditorTemplate({ user: 'Only {{ task.prompt }}' })).toEqual({
      system: DEFAULT_EDITOR_TEMPLATE.system,
      user: 'Only {{ task.prompt }}',
    });
  });

  it('rejects an unknown placeholder at creation, naming the part and the allowed ones', () => {
    expect(() => resolveEditorTemplate({ user: 'Task: {{task.promt}}' })).toThrow(
      /options\.template\.user.*\{\{task\.promt\}\}.*\{\{task\.prompt\}\}/,
    );
    expect(() => resolveEditorTemplate({ system: '{{}}' })).toThrow(/options\.template\.system/);
    expect(() => resolveEditorTemplate({ user: 3 as unknown as string })).toThrow(/expected a string/);
  });

  it('fills placeholders in one pass, never expanding inserted text', () => {
    expect(renderEditorTemplate('{{task.family}}: {{ task.prompt }} ({{generation}})', values)).toBe(
      'heat: Heat a mug, then {{history}}. (2)',
    );
  });
});
