import model from 'wink-eng-lite-web-model';

/** Lucene's English stop words (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`), which pyserini's analyzer drops. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

const TOKEN = /[\p{L}\p{N}]+(?:['.][\p{L}\p{N}]+)*/gu;

// The model's Porter2 stemmer, called directly: the same function winkNLP's `its.stem` applies to a token,
// without building a document per word. The typings declare addons as `unknown`.
const porter2 = (model.addons as { stem: (word: string) => string }).stem;
const stems = new Map<string, string>();

function stem(word: string): string {
  const hit = stems.get(word);
  if (hit !== undefined) return hit;
  const result = porter2(word);
  if (stems.size > 200_000) stems.clear();
  stems.set(word, result);
  return result;
}

/**
 * Text to index terms, in the spirit of pyserini's default English analyzer: lower-case, split on anything
 * that is not a letter or digit (keeping `6.7` and `l'eau` whole), drop a possessive `'s`, drop Lucene's stop
 * words, and stem (winkNLP's Porter2 stemmer; Lucene uses the original Porter stemmer).
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.toLowerCase().matchAll(TOKEN)) {
    let word = match[0];
    if (word.endsWith("'s")) word = word.slice(0, -2);
    if (word.length === 0 || STOP_WORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}
