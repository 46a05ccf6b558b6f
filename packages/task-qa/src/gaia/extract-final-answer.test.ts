import { describe, expect, it } from 'vitest';
import { extractFinalAnswer } from './extract-final-answer.js';

describe('extractFinalAnswer', () => {
  it('returns the trimmed text after the marker', () => {
    expect(extractFinalAnswer('I counted the birds.\nFINAL ANSWER:  3 \n')).toBe('3');
  });

  it('uses the last marker when there are several', () => {
    expect(extractFinalAnswer('FINAL ANSWER: 4\nWait, I miscounted.\nFINAL ANSWER: 5')).toBe('5');
  });

  it('accepts any case and spacing in the marker', () => {
    expect(extractFinalAnswer('final   answer :Paris')).toBe('Paris');
    expect(extractFinalAnswer('Final Answer: a, b')).toBe('a, b');
  });

  it('keeps later lines, since the template puts the answer last', () => {
    expect(extractFinalAnswer('FINAL ANSWER: line one\nline two')).toBe('line one\nline two');
  });

  it('returns undefined without a marker and the empty string for an empty answer', () => {
    expect(extractFinalAnswer('The answer is 3.')).toBeUndefined();
    expect(extractFinalAnswer('FINAL ANSWER:')).toBe('');
  });
});
