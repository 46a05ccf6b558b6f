import { describe, expect, it } from 'vitest';
import { answerPart, lastInteger } from './answer-parsing.js';

describe('answer parsing', () => {
  it.each([
    ['42', 42],
    ['She has 12, then 20, so 32 apples.', 32],
    ['FINAL ANSWER: 1,234', 1234],
    ['It is 7.0', 7],
    ['It is 3.5', undefined],
    ['10-2=8', 8],
    ['no digits', undefined],
    ['1,2,3', 3],
  ])('lastInteger(%j) = %s', (text, expected) => {
    expect(lastInteger(text)).toBe(expected);
  });

  it('answerPart prefers the FINAL ANSWER part', () => {
    expect(answerPart('I had 3 then 5.\nFINAL ANSWER: 8')).toBe('8');
    expect(answerPart('  just this  ')).toBe('just this');
  });
});
