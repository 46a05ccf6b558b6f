// SQuAD v1.1's official evaluation script uses Python's `string.punctuation`: ASCII only, so accented letters
// and non-ASCII punctuation are kept. We match it exactly so scores agree with published SQuAD numbers.
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /\b(a|an|the)\b/g;

/**
 * SQuAD's `normalize_answer`: lower-case, drop ASCII punctuation, drop the articles a/an/the, collapse
 * whitespace. `normalizeAnswer('The  Eiffel-Tower!')` → `'eiffeltower'`.
 */
export function normalizeAnswer(text: string): string {
  const lowered = text.toLowerCase();
  const noPunctuation = lowered.replace(ASCII_PUNCTUATION, '');
  const noArticles = noPunctuation.replace(ARTICLES, ' ');
  return noArticles.split(/\s+/).filter(Boolean).join(' ');
}
