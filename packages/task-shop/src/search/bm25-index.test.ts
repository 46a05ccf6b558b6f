import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { Bm25Index } from './bm25-index.js';

describe('analyze', () => {
  it('lower-cases, drops Lucene stop words and possessives, keeps decimals, stems', () => {
    expect(analyze("The Women's Running Shoes with 6.7 oz")).toEqual(['women', 'run', 'shoe', '6.7', 'oz']);
  });
});

describe('Bm25Index', () => {
  it('scores with Lucene BM25 and pyserini constants (k1 0.9, b 0.4)', () => {
    const index = new Bm25Index();
    index.add('a', 'red shoe');
    index.add('b', 'blue shoe shoe lace');
    index.add('c', 'green hat');
    // N = 3, lengths 2, 4, 2 → avgdl 8/3. "red": df 1, idf = ln(1 + 2.5/1.5) = ln(8/3).
    // doc a: tf 1, norm = 0.9 · (0.6 + 0.4 · 2 / (8/3)) = 0.9 · 0.9 = 0.81 → idf · 1 / 1.81.
    const [hit] = index.search('red', 10);
    expect(hit?.id).toBe('a');
    expect(hit?.score).toBeCloseTo(Math.log(8 / 3) / 1.81, 12);
    // "shoe": df 2, idf = ln(1 + 1.5/2.5) = ln(1.6). Doc b: tf 2, norm = 0.9 · (0.6 + 0.4 · 4 / (8/3)) = 1.08
    // → 2 ln 1.6 / 3.08 = 0.3052; doc a: ln 1.6 / 1.81 = 0.2597. b ranks first.
    const hits = index.search('shoe', 10);
    expect(hits.map((h) => h.id)).toEqual(['b', 'a']);
    expect(hits[0]?.score).toBeCloseTo((2 * Math.log(1.6)) / 3.08, 12);
  });

  it('returns only documents sharing a term, at most k, ties in insertion order', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 5; i++) index.add(`d${i}`, 'same words here');
    index.add('other', 'nothing alike');
    expect(index.search('words', 3).map((h) => h.id)).toEqual(['d0', 'd1', 'd2']);
    expect(index.search('absent', 3)).toEqual([]);
  });

  it('rejects constants out of range, naming them', () => {
    expect(() => new Bm25Index({ b: 2 })).toThrow(/options\.b/);
    expect(() => new Bm25Index({ k1: -1 })).toThrow(/options\.k1/);
  });
});
