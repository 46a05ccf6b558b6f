/**
 * The characters Python's `str.isspace()`, `re`'s `\s` (str patterns) and `str.split()` treat as whitespace.
 * JavaScript's `\s` differs: it lacks U+001C–U+001F and U+0085, and adds U+FEFF, so ports of Python text code
 * use this class instead.
 */
export const PY_WHITESPACE_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Every Python whitespace character, globally (for `replace`). */
export const PY_WHITESPACE_GLOBAL = new RegExp(`[${PY_WHITESPACE_CLASS}]`, 'g');

/** One or more Python whitespace characters (for `split`). */
export const PY_WHITESPACE_RUN = new RegExp(`[${PY_WHITESPACE_CLASS}]+`);

/** Python's `s.split()` with no argument: split on whitespace runs, no empty strings. */
export function pythonSplit(text: string): string[] {
  return text.split(PY_WHITESPACE_RUN).filter((part) => part.length > 0);
}

/** Python's `s.strip()` with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(new RegExp(`^[${PY_WHITESPACE_CLASS}]+|[${PY_WHITESPACE_CLASS}]+$`, 'g'), '');
}

/** Python's `string.punctuation`: the 32 ASCII punctuation characters. */
export const PY_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const PUNCTUATION_GLOBAL = new RegExp(`[${PY_PUNCTUATION.replace(/[\\\]^-]/g, '\\$&')}]`, 'g');

/** `s.translate(str.maketrans('', '', string.punctuation))`: deletes ASCII punctuation. */
export function deletePunctuation(text: string): string {
  return text.replace(PUNCTUATION_GLOBAL, '');
}
