import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGroupIndex, buildPairIndex } from './group-index.js';

function reference(keys: ArrayLike<string | number>): number[] {
  const seen = new Map<string | number, number>();
  return Array.from(keys, (k) => {
    if (!seen.has(k)) seen.set(k, seen.size);
    return seen.get(k)!;
  });
}

describe('buildGroupIndex', () => {
  it('numbers groups densely in order of first appearance', () => {
    const index = buildGroupIndex([7, 3, 7, 9, 3]);
    expect(Array.from(index.groupOf)).toEqual([0, 1, 0, 2, 1]);
    expect(index.groupCount).toBe(3);
    expect(Array.from(index.firstSample)).toEqual([0, 1, 3]);
  });

  it('keeps 1 and "1" apart, and handles strings, negatives, fractions and huge ranges', () => {
    expect(Array.from(buildGroupIndex([1, '1', 1]).groupOf)).toEqual([0, 1, 0]);
    expect(Array.from(buildGroupIndex(['b', 'a', 'b']).groupOf)).toEqual([0, 1, 0]);
    expect(Array.from(buildGroupIndex(Int32Array.of(-5, 2, -5)).groupOf)).toEqual([0, 1, 0]);
    expect(Array.from(buildGroupIndex([0.5, 1.5, 0.5]).groupOf)).toEqual([0, 1, 0]);
    // A range far wider than the batch goes through the Map, not a giant table.
    expect(Array.from(buildGroupIndex([0, 2 ** 40, 0]).groupOf)).toEqual([0, 1, 0]);
    expect(buildGroupIndex([]).groupCount).toBe(0);
  });

  it('agrees with a Map on any keys, typed or not', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 60 }), (keys) => {
        const expected = reference(keys);
        expect(Array.from(buildGroupIndex(keys).groupOf)).toEqual(expected);
        expect(Array.from(buildGroupIndex(Int32Array.from(keys)).groupOf)).toEqual(expected);
        expect(Array.from(buildGroupIndex(keys.map(String)).groupOf)).toEqual(expected);
      }),
    );
  });
});

describe('contiguous runs', () => {
  it('records run starts when each group is one run, and builds groupOf only when asked', () => {
    const index = buildGroupIndex(Int32Array.of(5, 5, 2, 2, 2, 9));
    expect(Array.from(index.runStart ?? [])).toEqual([0, 2, 5, 6]);
    expect(Array.from(index.groupOf)).toEqual([0, 0, 1, 1, 1, 2]);
    expect(Array.from(buildGroupIndex(['a', 'a', 'b']).runStart ?? [])).toEqual([0, 2, 3]);
    // A key that comes back after another started: no runs.
    expect(buildGroupIndex([1, 2, 1]).runStart).toBeUndefined();
    expect(buildGroupIndex(['a', 'b', 'a']).runStart).toBeUndefined();
  });

  it('agrees with the scattered path on sorted keys', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }), (keys) => {
        const sorted = [...keys].sort((a, b) => a - b);
        const index = buildGroupIndex(sorted);
        expect(index.runStart).toBeDefined();
        expect(Array.from(index.groupOf)).toEqual(reference(sorted));
        expect(Array.from(index.firstSample)).toEqual(
          reference(sorted).flatMap((g, i, all) => (all.indexOf(g) === i ? [i] : [])),
        );
      }),
    );
  });
});

describe('buildPairIndex', () => {
  it('numbers (a, b) pairs densely, on both the table and the Map path', () => {
    const a = buildGroupIndex(['x', 'y', 'x', 'x']);
    const b = buildGroupIndex([1, 1, 2, 1]);
    expect(Array.from(buildPairIndex(a, b).groupOf)).toEqual([0, 1, 2, 0]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 })), {
          maxLength: 80,
        }),
        (pairs) => {
          const index = buildPairIndex(
            buildGroupIndex(pairs.map((p) => p[0])),
            buildGroupIndex(pairs.map((p) => p[1])),
          );
          expect(Array.from(index.groupOf)).toEqual(reference(pairs.map(([x, y]) => `${x}/${y}`)));
        },
      ),
    );
  });
});
