import { describe, expect, it } from 'vitest';
import {
  ExpressionSyntaxError,
  evaluateExpression,
  numbersIn,
  parseExpression,
} from './arithmetic-expression.js';
import { formatRational } from './rational.js';

const value = (text: string) => {
  const v = evaluateExpression(parseExpression(text));
  return v === undefined ? undefined : formatRational(v);
};

describe('parseExpression / evaluateExpression', () => {
  it('uses the usual precedence, left to right', () => {
    expect(value('2 + 3 * 4')).toBe('14'); // 3*4 first
    expect(value('(2 + 3) * 4')).toBe('20');
    expect(value('10 - 4 - 3')).toBe('3'); // (10-4)-3, not 10-(4-3)=9
    expect(value('48 / 4 / 2')).toBe('6'); // (48/4)/2
    expect(value('8 / (3 - 8 / 3)')).toBe('24'); // 3 - 8/3 = 1/3; 8 / (1/3) = 24
    expect(value('1 / 3')).toBe('1/3');
    expect(value('[2 + 2] × 3 ÷ 4 − 1')).toBe('2'); // 4*3/4 - 1
  });

  it('reports division by zero as undefined, not Infinity', () => {
    expect(value('4 / (2 - 2)')).toBeUndefined();
  });

  it('lists the literals left to right', () => {
    expect(numbersIn(parseExpression('(13 - 1) * (1 + 1)'))).toEqual([13, 1, 1, 1]);
  });

  it.each([
    ['', 'empty expression at position 0'],
    ['2 +', 'expected a number or "(" at position 3'],
    ['-2 + 5', 'expected a number or "(", got "-" at position 0'],
    ['(1 + 2', 'expected ")" at position 6'],
    ['1 + 2)', 'unexpected ")" at position 5'],
    ['2.5 * 4', 'unexpected character "." at position 1'],
    ['2 ** 3', 'expected a number or "(", got "*" at position 3'],
    ['Math.max(1)', 'unexpected character "M" at position 0'],
  ])('rejects %j: %s', (text, message) => {
    expect(() => parseExpression(text)).toThrow(ExpressionSyntaxError);
    expect(() => parseExpression(text)).toThrow(message);
  });
});
