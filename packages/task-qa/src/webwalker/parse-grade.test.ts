import { describe, expect, it } from 'vitest';
import { parseWebWalkerGrade } from './parse-grade.js';

// Expected values follow LangChain's _get_score by hand: the GRADE regex first, then first word, then last word.
describe('parseWebWalkerGrade', () => {
  it.each([
    ['The student says March 21.\nGRADE: CORRECT', 'CORRECT', 1],
    ['Reasoning...\ngrade:incorrect', 'INCORRECT', 0],
    ['GRADE:   Correct\nGRADE: INCORRECT', 'CORRECT', 1], // the first GRADE wins
    ['The answer is incorrect because ... GRADE: CORRECT', 'CORRECT', 1], // GRADE beats loose words
    ['CORRECT. The dates match.', 'CORRECT', 1], // first word, punctuation deleted
    ['**Incorrect**: wrong venue', 'INCORRECT', 0], // first word "**Incorrect**:" → INCORRECT
    ['The student is right, so the answer is: correct!', 'CORRECT', 1], // last word
    ['The answer is incorrect.', 'INCORRECT', 0], // last word
    ['GRADE: PARTIALLY CORRECT', 'CORRECT', 1], // no regex match ("grade: partially"); last word CORRECT
    ['The student answer is partially right.', null, null],
    ['   ', null, null],
    ['', null, null],
  ])('%j → %s', (reply, value, score) => {
    expect(parseWebWalkerGrade(reply)).toEqual({ value, score, reasoning: reply.trim() });
  });
});
