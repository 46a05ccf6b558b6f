import { describe, expect, it } from 'vitest';
import { isContentWord, tokenize } from './tokenize.js';
import { createVocabulary, vocabularyFromTexts } from './vocabulary.js';

describe('tokenize', () => {
  it('lower-cases, splits on non-alphanumerics and folds plurals', () => {
    expect(tokenize('Dishes in Cabinets, shelves; countertops "move <object>"')).toEqual([
      'dish',
      'in',
      'cabinet',
      'shelf',
      'countertop',
      'move',
      'object',
    ]);
    expect(tokenize('glass 2 is')).toEqual(['glass', '2', 'is']);
  });
  it('treats function words and numbers as non-content', () => {
    expect(['go', 'to', 'the', '3'].some(isContentWord)).toBe(false);
    expect(isContentWord('sinkbasin')).toBe(true);
  });
});

describe('vocabulary', () => {
  it('gives known words their index and unseen words a stable hash bucket', () => {
    const v = createVocabulary(['apple', 'fridge'], { hashBuckets: 8 });
    expect(v.size).toBe(10);
    expect(v.id('fridge')).toBe(1);
    const unseen = v.id('zucchini');
    expect(unseen).toBeGreaterThanOrEqual(2);
    expect(unseen).toBeLessThan(10);
    expect(createVocabulary(['apple', 'fridge'], { hashBuckets: 8 }).id('zucchini')).toBe(unseen);
  });
  it('ranks words by frequency', () => {
    const v = vocabularyFromTexts(['b a b', 'c b a'], { hashBuckets: 1 });
    // counts: b 3, a 2, c 1.
    expect(v.words).toEqual(['b', 'a', 'c']);
  });
});
