import { describe, expect, it } from 'vitest';
import { admissibleActionsText, errorResult, observationResult, observationText } from './tool-result.js';

describe('tool results', () => {
  it('the observation, with a last line once the episode is over', () => {
    expect(observationText({ observation: 'You open the fridge.', done: false })).toBe(
      'You open the fridge.',
    );
    expect(observationText({ observation: 'You win.', done: true })).toBe('You win.\n\n[episode done]');
    expect(
      observationText({
        observation: 'Nothing happens.',
        done: false,
        ended: 'the step limit (50) is reached',
      }),
    ).toBe('Nothing happens.\n\n[episode ended: the step limit (50) is reached]');
  });

  it('structuredContent: done is true whenever the episode is over, ended is kept', () => {
    expect(observationResult({ observation: 'x', done: false, ended: 'error' }).structuredContent).toEqual({
      observation: 'x',
      done: true,
      ended: 'error',
    });
  });

  it('admissible actions one per line; an empty list and an unlisted one say so', () => {
    expect(admissibleActionsText(['look', 'inventory'])).toBe('look\ninventory');
    expect(admissibleActionsText([])).toBe('No action is admissible now.');
    expect(admissibleActionsText(undefined)).toBe('This environment lists no admissible actions.');
  });

  it('errors are isError results carrying the message', () => {
    expect(errorResult(new Error('the episode is over'))).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'the episode is over' }],
    });
    expect(errorResult('plain')).toMatchObject({ content: [{ text: 'plain' }] });
  });
});
