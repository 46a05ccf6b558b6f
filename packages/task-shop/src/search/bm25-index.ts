import { InvalidArgumentError } from '@skillrl/core';
import { analyze } from './analyze.js';

export interface Bm25Options {
  /** Term-frequency saturation. Default 0.9, pyserini's default for its Lucene searcher. */
  k1?: number;
  /** Length normalisation. Default 0.4, pyserini's default. */
  b?: number;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

/**
 * BM25 as Lucene (8+) scores it: `idf · tf / (tf + k1 · (1 − b + b · dl / avgdl))` with
 * `idf = ln(1 + (N − df + 0.5) / (df + 0.5))`, summed over query terms (a repeated query term counts again).
 * Ours rather than a library: the two npm candidates score differently (minisearch uses BM25+ with its own
 * constants and field boosts; wink-bm25-text-search needs a consolidation step and its own text pipeline),
 * and the formula with pyserini's constants is short. Ties are broken by insertion order, so results are
 * deterministic.
 */
export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private totalLength = 0;
  private norms = new Float64Array(0);
  private scores = new Float64Array(0);

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 0.9;
    this.b = options.b ?? 0.4;
    if (!(this.k1 >= 0))
      throw new InvalidArgumentError('options.k1', `expected a number >= 0, got ${this.k1}`);
    if (!(this.b >= 0 && this.b <= 1)) {
      throw new InvalidArgumentError('options.b', `expected a number in [0, 1], got ${this.b}`);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  add(id: string, text: string): void {
    const doc = this.ids.length;
    const terms = analyze(text);
    this.ids.push(id);
    this.lengths.push(terms.length);
    this.totalLength += terms.length;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = [];
        this.postings.set(term, list);
      }
      list.push({ doc, tf });
    }
  }

  /** The top `k` documents for the query, best first; documents sharing no term with it are not returned. */
  search(query: string, k: number): Bm25Hit[] {
    const n = this.ids.length;
    if (n === 0) return [];
    const norms = this.documentNorms();
    if (this.scores.length < n) this.scores = new Float64Array(n);
    const scores = this.scores;
    const touched: number[] = [];
    for (const term of analyze(query)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] ?? 0) + (idf * tf) / (tf + (norms[doc] ?? 0));
      }
    }
    touched.sort((x, y) => (scores[y] ?? 0) - (scores[x] ?? 0) || x - y);
    const hits = touched.slice(0, k).map((doc) => ({ id: this.ids[doc] ?? '', score: scores[doc] ?? 0 }));
    // The buffer is shared between calls: clear only what this query wrote.
    for (const doc of touched) scores[doc] = 0;
    return hits;
  }

  /** `k1 · (1 − b + b · dl / avgdl)` per document, recomputed only after documents were added. */
  private documentNorms(): Float64Array {
    const n = this.ids.length;
    if (this.norms.length !== n) {
      const avgdl = this.totalLength / n || 1;
      this.norms = Float64Array.from(this.lengths, (dl) => this.k1 * (1 - this.b + (this.b * dl) / avgdl));
    }
    return this.norms;
  }
}
