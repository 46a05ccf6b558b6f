import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { readBatch, requireField } from './read-batch.js';

describe('readBatch', () => {
  it('keeps a Float64Array as is and reads anything else as numbers, non-numbers as NaN', () => {
    const scores = Float64Array.of(1, 2);
    expect(readBatch({ scores, groupIds: [1, 1] }, 'x').scores).toBe(scores);
    const read = readBatch({ scores: [1, null, 'a', undefined] as never, groupIds: [1, 1, 1, 1] }, 'x');
    expect(Array.from(read.scores)).toEqual([1, Number.NaN, Number.NaN, Number.NaN]);
  });

  it('names missing scores or groupIds and any per-sample field of the wrong length', () => {
    expect(() => readBatch({ groupIds: [1] } as never, 'grpo')).toThrow(MissingFieldError);
    expect(() => readBatch({ scores: [1] } as never, 'grpo')).toThrow(/needs the field "groupIds"/);
    expect(() => readBatch({ scores: [1, 2], groupIds: [1, 1], lengths: [3] }, 'opo')).toThrow(
      /batch\.lengths: opo: expected 2 entries \(one per score\), got 1/,
    );
    expect(() => readBatch(null as never, 'grpo')).toThrow(InvalidArgumentError);
    expect(() => readBatch({ scores: 5, groupIds: [1] } as never, 'grpo')).toThrow(/batch\.scores/);
  });

  it('requireField returns the field or throws MissingFieldError naming it', () => {
    const checked = readBatch({ scores: [1], groupIds: [1], conditions: [1] }, 'skillc');
    expect(requireField(checked, 'conditions', 'skillc')).toEqual([1]);
    try {
      requireField(checked, 'lengths', 'opo');
      expect.unreachable();
    } catch (error) {
      expect(MissingFieldError.isInstance(error) && error.field).toBe('lengths');
    }
  });
});
