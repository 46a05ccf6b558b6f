import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupScores } from './score-groups.js';

describe('groupScores', () => {
  it('golden values: groups in order of first appearance, non-finite scores left out', () => {
    const { members, metrics } = groupScores(
      [1, 0, Number.NaN, 1, 1, 0, 0],
      ['a', 'a', 'a', 'b', 'b', 'c', 'c'],
    );
    expect(members).toEqual([
      [0, 1],
      [3, 4],
      [5, 6],
    ]);
    // b (1, 1) and c (0, 0) have no spread; b all passed, c all failed, a is mixed.
    expect(metrics).toEqual({ frac_zero_std: 2 / 3, groups_all_pass: 1, groups_all_fail: 1 });
  });

  it('decides passes on successes when given, not on the score', () => {
    const { metrics } = groupScores([0.2, 0.7], [1, 1], [false, false]);
    expect(metrics).toEqual({ frac_zero_std: 0, groups_all_pass: 0, groups_all_fail: 1 });
    expect(groupScores([], []).metrics).toEqual({ frac_zero_std: 0, groups_all_pass: 0, groups_all_fail: 0 });
  });

  it('puts every finite sample in exactly one group, with one key per group', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.double(), fc.constant(Number.NaN)), fc.integer({ min: 0, max: 4 }))),
        (rows) => {
          const scores = rows.map((r) => r[0]);
          const ids = rows.map((r) => r[1]);
          const { members, metrics } = groupScores(scores, ids);
          const seen = members.flat().sort((a, b) => a - b);
          expect(seen).toEqual(scores.flatMap((s, i) => (Number.isFinite(s) ? [i] : [])));
          for (const group of members) expect(new Set(group.map((i) => ids[i])).size).toBe(1);
          expect(metrics.groups_all_pass + metrics.groups_all_fail).toBeLessThanOrEqual(members.length);
        },
      ),
    );
  });
});
