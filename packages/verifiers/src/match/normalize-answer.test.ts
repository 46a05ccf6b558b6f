import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAnswer } from './normalize-answer.js';

describe('normalizeAnswer', () => {
  it('matches SQuAD normalize_answer on hand-worked cases', () => {
    // lower → "the  eiffel-tower!" → drop punctuation → "the  eifteltower" style; articles → spaces; collapse.
    expect(normalizeAnswer('The  Eiffel-Tower!')).toBe('eiffeltower');
    expect(normalizeAnswer('A cat, an owl and THE dog.')).toBe('cat owl and dog');
    // "theatre" keeps its "the": articles are removed only as whole words.
    expect(normalizeAnswer('Theatre')).toBe('theatre');
    // Non-ASCII punctuation is kept, as in SQuAD's string.punctuation.
    expect(normalizeAnswer('«Café»')).toBe('«café»');
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => normalizeAnswer(normalizeAnswer(s)) === normalizeAnswer(s)));
  });
});
