import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateExpression, numbersIn, parseExpression } from './arithmetic-expression.js';
import { solveCountdown } from './solve-countdown.js';

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('solveCountdown', () => {
  it('finds the classic fraction solution for 3 3 8 8', () => {
    // Only 8 / (3 - 8 / 3) makes 24 from these (3 - 8/3 = 1/3).
    const solution = solveCountdown([3, 3, 8, 8], 24) as string;
    expect(solution).toBeDefined();
    expect(evaluateExpression(parseExpression(solution))).toEqual({ n: 24n, d: 1n });
  });

  it('says when there is no solution', () => {
    // The largest value from four 1s is (1+1)*(1+1) = 4.
    expect(solveCountdown([1, 1, 1, 1], 24)).toBeUndefined();
    expect(solveCountdown([1, 1, 1, 1], 4)).toBeDefined();
  });

  it('returns expressions that use every number once and hit the target', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 13 }), { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 1, max: 60 }),
        (numbers, target) => {
          const solution = solveCountdown(numbers, target);
          if (solution === undefined) return;
          const tree = parseExpression(solution);
          expect(sorted(numbersIn(tree))).toEqual(sorted(numbers));
          expect(evaluateExpression(tree)).toEqual({ n: BigInt(target), d: 1n });
        },
      ),
      { numRuns: 200 },
    );
  });
});
