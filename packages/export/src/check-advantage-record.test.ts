import { describe, expect, it } from 'vitest';
import { checkAdvantageRecord } from './check-advantage-record.js';

const record = (rows: unknown[]) => ({ key: 's1', unit: 's1', rows });

describe('checkAdvantageRecord', () => {
  it('takes what a run writes: trajectory rows (null advantages, step advantages) and candidate rows', () => {
    expect(
      checkAdvantageRecord(
        record([
          { trajectoryId: 's1/a', advantage: 0.5 },
          { trajectoryId: 's1/b', advantage: null },
          { trajectoryId: 's1/c', advantage: -1, stepAdvantages: [0, 1.5] },
        ]),
        'trajectory',
      ),
    ).toBeUndefined();
    expect(
      checkAdvantageRecord(
        record([{ taskId: 'a', candidate: 2, advantage: 0.1, reward: 0.5, fallback: true }]),
        'candidate',
      ),
    ).toBeUndefined();
  });

  it('names the first field that is wrong and what was expected', () => {
    const cases: [unknown, 'trajectory' | 'candidate', string][] = [
      [null, 'trajectory', 'is null (expected an object { key, unit, rows })'],
      [{ key: 1, unit: 's1', rows: [] }, 'trajectory', 'has key = 1 (expected a string)'],
      [{ key: 's1', rows: [] }, 'trajectory', 'has unit = undefined (expected a string)'],
      [{ key: 's1', unit: 's1', rows: 'x' }, 'trajectory', 'has rows = "x" (expected an array)'],
      [record([7]), 'trajectory', 'has rows[0] = 7 (expected an object)'],
      [
        record([{ advantage: 1 }]),
        'trajectory',
        'has rows[0].trajectoryId = undefined (expected a rollout id: a string)',
      ],
      [
        record([
          { trajectoryId: 'x', advantage: 1 },
          { trajectoryId: 'y', advantage: '1' },
        ]),
        'trajectory',
        'has rows[1].advantage = "1" (expected a finite number or null)',
      ],
      [
        record([{ trajectoryId: 'x', advantage: 1, stepAdvantages: [1, null] }]),
        'trajectory',
        'has rows[0].stepAdvantages[1] = null (expected a finite number)',
      ],
      [
        record([{ trajectoryId: 'x', advantage: 1, stepAdvantages: 2 }]),
        'trajectory',
        'has rows[0].stepAdvantages = 2 (expected an array of finite numbers)',
      ],
      [
        record([{ candidate: 0, advantage: 1 }]),
        'candidate',
        'has rows[0].taskId = undefined (expected a task id: a string)',
      ],
      [
        record([{ taskId: 'a', candidate: 1.5, advantage: 1 }]),
        'candidate',
        'has rows[0].candidate = 1.5 (expected an integer >= 0)',
      ],
      [
        record([{ taskId: 'a', candidate: 0, advantage: 1, reward: 'x' }]),
        'candidate',
        'has rows[0].reward = "x" (expected a finite number)',
      ],
      // A trajectory row is not a candidate row, nor the reverse.
      [
        record([{ trajectoryId: 'x', advantage: 1 }]),
        'candidate',
        'has rows[0].taskId = undefined (expected a task id: a string)',
      ],
    ];
    for (const [value, kind, says] of cases) expect(checkAdvantageRecord(value, kind)).toBe(says);
  });
});
