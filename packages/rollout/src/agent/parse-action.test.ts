import { InvalidArgumentError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createActionParser } from './parse-action.js';

describe('createActionParser', () => {
  const parse = createActionParser();

  it('reads the last <action> tag, ignoring <think> blocks', () => {
    expect(parse('I will <action>look</action> then <action>go to desk 1</action>')).toEqual({
      action: 'go to desk 1',
      invalid: false,
      format: 'tag',
    });
    expect(
      parse('<think>maybe <action>take key</action>?</think>\n<action> open door </action>').action,
    ).toBe('open door');
  });

  it('falls back to an "Action:" line, then to the last line', () => {
    expect(parse('Thought: the key is here.\nAction: take key 1\nThat is all')).toMatchObject({
      action: 'take key 1',
      format: 'prefix',
    });
    expect(parse('**Action:** `open fridge 1`')).toMatchObject({ action: 'open fridge 1', format: 'prefix' });
    expect(parse('I think so.\n\n  42  \n')).toMatchObject({ action: '42', format: 'last-line' });
  });

  it('is invalid when nothing remains', () => {
    expect(parse('')).toEqual({ action: '', invalid: true });
    expect(parse('<think>only thinking</think>')).toEqual({ action: '', invalid: true });
    expect(createActionParser({ formats: ['tag'] })('Action: look')).toEqual({ action: '', invalid: true });
  });

  it('takes a custom tag and prefix', () => {
    const custom = createActionParser({ formats: ['tag', 'prefix'], tag: 'answer', prefix: 'Final answer:' });
    expect(custom('<answer>Paris</answer>').action).toBe('Paris');
    expect(custom('final ANSWER: 12').action).toBe('12');
    expect(custom('<action>x</action>').invalid).toBe(true);
  });

  it('rejects an empty format list', () => {
    expect(() => createActionParser({ formats: [] })).toThrow(InvalidArgumentError);
  });
});
