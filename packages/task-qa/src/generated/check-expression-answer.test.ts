import { describe, expect, it } from 'vitest';
import { checkExpressionAnswer, expressionOf } from './check-expression-answer.js';

describe('checkExpressionAnswer', () => {
  const numbers = [4, 6, 8, 2];

  it.each([
    ['FINAL ANSWER: (8 - 4) * 6 + 2 - 2 ', false, 'uses 8, 4, 6, 2, 2'],
    ['FINAL ANSWER: (8 - 4) * 6 * (2 / 2)', false, 'uses 8, 4, 6, 2, 2'],
    ['FINAL ANSWER: 6 * 8 / 2 - 4', false, '6 * 8 / 2 - 4 = 20, not 24'],
    ['FINAL ANSWER: 4 * 8 - 6 - 2', true, '4 * 8 - 6 - 2 = 24'],
    ['Working...\nFINAL ANSWER: `(4 * 8) - (6 + 2) = 24`.', true, '(4 * 8) - (6 + 2) = 24'],
    ['I think 24 = 4 × 8 − 6 − 2', true, '4 × 8 − 6 − 2 = 24'],
    ['FINAL ANSWER: 4 * 8 - 6', false, 'uses 4, 8, 6; must use 4, 6, 8, 2 exactly once each'],
    ['FINAL ANSWER: eval("4*8-6-2")', false, 'not an arithmetic expression'],
    ['FINAL ANSWER: 4 / (8 - 6 - 2)', false, 'divides by zero'],
  ])('%j → %s', (reply, correct, reason) => {
    const check = checkExpressionAnswer(reply, numbers, 24);
    expect(check.correct).toBe(correct);
    expect(check.reason).toContain(reason);
  });

  it('accepts fractions on the way', () => {
    expect(checkExpressionAnswer('8 / (3 - 8 / 3)', [3, 3, 8, 8], 24).correct).toBe(true);
  });

  it('does not accept a non-integer result equal after rounding', () => {
    // 25 / 3 = 25/3 exactly; a checker that rounded to integers would call it 8.
    expect(checkExpressionAnswer('25 / 3', [25, 3], 8).correct).toBe(false);
  });

  it('expressionOf picks the side with an operator', () => {
    expect(expressionOf('24 = 6 * 4')).toBe('6 * 4');
    expect(expressionOf('line one\n6 * 4\n')).toBe('6 * 4');
  });
});
