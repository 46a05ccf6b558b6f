import { InvalidArgumentError } from '@skillrl/core';
import { tokenize } from './tokenize.js';

/** Word ids: the environment's own words first, then hash buckets that any unseen word falls into. */
export interface Vocabulary {
  /** The known words, in id order (id = index). */
  readonly words: readonly string[];
  /** Buckets after the known words for words the vocabulary was not built with. */
  readonly hashBuckets: number;
  /** Known words plus hash buckets: the number of embedding rows. */
  readonly size: number;
  id(word: string): number;
  toJSON(): VocabularyJson;
}

export interface VocabularyJson {
  words: string[];
  hashBuckets: number;
}

/** FNV-1a over UTF-16 code units: a stable bucket for a word on every platform. */
function fnv1a(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function createVocabulary(
  words: readonly string[],
  options: { hashBuckets?: number } = {},
): Vocabulary {
  const hashBuckets = options.hashBuckets ?? 64;
  if (!Number.isInteger(hashBuckets) || hashBuckets < 1) {
    throw new InvalidArgumentError('options.hashBuckets', `expected an integer >= 1, got ${hashBuckets}`);
  }
  const unique = [...new Set(words)];
  const index = new Map<string, number>();
  for (const [i, w] of unique.entries()) index.set(w, i);
  return {
    words: unique,
    hashBuckets,
    size: unique.length + hashBuckets,
    id: (word) => index.get(word) ?? unique.length + (fnv1a(word) % hashBuckets),
    toJSON: () => ({ words: [...unique], hashBuckets }),
  };
}

/**
 * A vocabulary of the words in `texts` that occur at least `minCount` times (most frequent first, ties in
 * first-seen order), capped at `maxWords`.
 */
export function vocabularyFromTexts(
  texts: Iterable<string>,
  options: { hashBuckets?: number; minCount?: number; maxWords?: number } = {},
): Vocabulary {
  const counts = new Map<string, number>();
  for (const text of texts) for (const w of tokenize(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const minCount = options.minCount ?? 1;
  const ranked = [...counts.entries()].filter(([, n]) => n >= minCount).sort((x, y) => y[1] - x[1]);
  const words = ranked.slice(0, options.maxWords ?? ranked.length).map(([w]) => w);
  return createVocabulary(
    words,
    options.hashBuckets === undefined ? {} : { hashBuckets: options.hashBuckets },
  );
}

export function vocabularyFromJson(json: VocabularyJson): Vocabulary {
  return createVocabulary(json.words, { hashBuckets: json.hashBuckets });
}
