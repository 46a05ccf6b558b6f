import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../contracts/trajectory.js';
import { pairedUtility, utilityMetadata } from './skill-utility.js';

let next = 0;
const run = (taskId: string, condition: 0 | 1, passed: boolean, errored = false): Trajectory => ({
  id: `${taskId}:${condition}:${next++}`,
  taskId,
  family: 'f',
  condition,
  steps: [],
  reward: passed ? 1 : 0,
  verdict: { score: passed ? 1 : 0, passed },
  ...(errored ? { error: { code: 'model', message: 'gone' } } : {}),
});

describe('pairedUtility', () => {
  it('pairs by task, leaves errored episodes and unpaired tasks out (golden values by hand)', () => {
    const u = pairedUtility(
      [
        run('a', 1, true),
        run('a', 0, false),
        run('b', 1, true),
        run('b', 1, false),
        run('b', 0, true),
        run('b', 0, true, true), // errored: measured nothing
        run('c', 1, true), // no skill-free episode: not a pair
      ],
      'valid_seen',
    );
    // Task diffs: a 1 − 0 = 1, b 0.5 − 1 = −0.5; mean 0.25; sd 1.0606602, se 0.75; t(0.975, 1) = 12.7062047.
    expect(u?.gap).toBeCloseTo(0.25, 12);
    expect(u?.lo).toBeCloseTo(0.25 - 12.7062047 * 0.75, 5);
    expect(u?.hi).toBeCloseTo(0.25 + 12.7062047 * 0.75, 5);
    expect(u?.withSkill).toBeCloseTo(2 / 3, 12);
    expect(u?.withoutSkill).toBeCloseTo(1 / 2, 12);
    expect(u).toMatchObject({ pairedBy: 'task', pairs: 2, episodes: 5, errored: 1, split: 'valid_seen' });
    expect(utilityMetadata(u as NonNullable<typeof u>)['skillrl-utility-gap']).toBe('0.2500');
  });

  it("one task with two or more episodes a side: its episodes are the pairs (evolve's per-task skills)", () => {
    next = 8; // ids a:1:8, a:1:9, a:1:10: the plan's order is numeric, not the string order
    const u = pairedUtility(
      [
        run('a', 1, true),
        run('a', 1, true),
        run('a', 1, false),
        run('a', 0, false),
        run('a', 0, true),
        run('a', 0, false),
        run('a', 0, true), // a fourth without: no partner, but in the rate
      ],
      'final',
    );
    // Pairs (sorted by index): 1−0, 1−1, 0−0 → 1, 0, 0; mean 1/3, sd √(1/3), se 1/3; t(0.975, 2) = 4.30265273.
    // The gap is the rates': 2/3 − 2/4.
    expect(u).toMatchObject({ pairedBy: 'episode', pairs: 3, episodes: 7 });
    expect(u?.gap).toBeCloseTo(2 / 3 - 1 / 2, 12);
    expect(u?.lo).toBeCloseTo(1 / 3 - 4.30265273 / 3, 6);
    expect(u?.hi).toBeCloseTo(1 / 3 + 4.30265273 / 3, 6);
    expect(utilityMetadata(u as NonNullable<typeof u>)['skillrl-utility-paired-by']).toBe('episode');
  });

  it('no task with both conditions: no utility, rather than a made-up one; one pair: an unknown interval', () => {
    expect(pairedUtility([run('a', 1, true)], 's')).toBeUndefined();
    const one = pairedUtility([run('a', 1, true), run('a', 0, false)], 's');
    expect(one?.gap).toBe(1);
    expect(Number.isNaN(one?.lo)).toBe(true);
    expect(utilityMetadata(one as NonNullable<typeof one>)['skillrl-utility-ci95']).toBe('nan nan');
  });
});
