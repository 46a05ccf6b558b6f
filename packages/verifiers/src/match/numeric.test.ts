import type { Task, Trajectory } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numeric } from './numeric.js';
import { parseNumbers } from './parse-numbers.js';

const task = (answer: Task['answer']): Task => ({
  id: 't',
  family: 'math',
  split: 'test',
  prompt: 'Q',
  answer,
});
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'math',
  condition: 1,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});

describe('parseNumbers', () => {
  it('reads commas, currency, percent, exponents and signs', () => {
    expect(parseNumbers('$1,234.50 and -3e2 and 45%').map((n) => n.value)).toEqual([1234.5, -300, 45]);
    expect(parseNumbers('45%')[0]).toMatchObject({ value: 45, percent: true });
    expect(parseNumbers('€12')[0]).toMatchObject({ value: 12, currency: '€' });
    // A dash between digits is a separator, and a digit glued to a letter is part of a word.
    expect(parseNumbers('pages 5-7 of A4').map((n) => n.value)).toEqual([5, 7]);
  });

  it('reads back any integer written with thousands separators', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => {
        const found = parseNumbers(`total: ${n.toLocaleString('en-US')} units`);
        return found.length === 1 && found[0]?.value === n;
      }),
    );
  });
});

describe('numeric', () => {
  it('takes the last number of the answer by default (GSM8K convention)', async () => {
    const v = numeric();
    expect(
      (await v.verify(task(18), traj('16 - 3 - 4 = 9 eggs, 9 * 2 = 18. The answer is $18.'))).score,
    ).toBe(1);
    const wrong = await v.verify(task(18), traj('I think 17'));
    expect(wrong).toMatchObject({ score: 0, passed: false });
    expect(wrong.reason).toMatch(/17.*not within tolerance of 18/);
  });

  it('applies absolute and relative tolerance: |a − r| <= max(absTol, relTol·|r|)', async () => {
    // |3.14 − 3.14159| = 0.00159 <= 0.01
    expect((await numeric({ absTol: 0.01 }).verify(task('3.14159'), traj('3.14'))).score).toBe(1);
    expect((await numeric({ absTol: 0.001 }).verify(task('3.14159'), traj('3.14'))).score).toBe(0);
    // relTol 0.05 of 1,000 = 50: 1,049 passes, 1,051 fails.
    expect((await numeric({ relTol: 0.05 }).verify(task('1,000'), traj('1,049'))).score).toBe(1);
    expect((await numeric({ relTol: 0.05 }).verify(task('1,000'), traj('1,051'))).score).toBe(0);
  });

  it('reads percentages as fractions when asked', async () => {
    expect((await numeric({ percent: 'fraction' }).verify(task(0.45), traj('45%'))).score).toBe(1);
    expect((await numeric().verify(task(0.45), traj('45%'))).score).toBe(0);
  });

  it('scores 0 with a reason when the answer has no number, or several under pick: only', async () => {
    expect((await numeric().verify(task(1), traj('no idea'))).reason).toMatch(/no number/);
    expect((await numeric({ pick: 'only' }).verify(task(2), traj('1 or 2'))).reason).toMatch(
      /expected one number/,
    );
    expect((await numeric({ pick: 'first' }).verify(task(1), traj('1 or 2'))).score).toBe(1);
  });

  it('rejects a negative tolerance and a reference without a number', async () => {
    expect(() => numeric({ absTol: -1 })).toThrow(/absTol/);
    await expect(numeric().verify(task('many'), traj('3'))).rejects.toThrow(/exactly one number/);
  });
});
