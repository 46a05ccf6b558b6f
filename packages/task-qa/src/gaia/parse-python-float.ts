/**
 * What Python's `float(str)` accepts, reproduced exactly (CPython 3.6+), because GAIA's scorer branches on
 * `float(ground_truth)` succeeding. Python:
 *
 * 1. maps every non-ASCII whitespace character to a space and every Unicode decimal digit (category Nd) to its
 *    ASCII digit; any other non-ASCII character makes the string invalid;
 * 2. allows `_` only between two digits (PEP 515), then removes it;
 * 3. strips ASCII whitespace (space, \t, \n, \v, \f, \r — not U+001C–U+001F, which `str.isspace` accepts);
 * 4. parses an optional sign, then `inf`, `infinity` or `nan` in any case, or a decimal with at least one
 *    mantissa digit, an optional `.`, and an optional exponent `e`/`E`, sign and digits. No hex, no `0x`.
 *
 * Returns `undefined` where Python raises `ValueError`.
 */
export function parsePythonFloat(text: string): number | undefined {
  const ascii = toAsciiDigitsAndSpaces(text);
  if (ascii === undefined) return undefined;
  const plain = removeUnderscores(ascii);
  if (plain === undefined) return undefined;
  const body = plain.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(body);
  if (special) {
    if ((special[2] as string).toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(body)) return undefined;
  // The syntax is now a subset of what Number() reads, and both round correctly to the nearest double.
  return Number(body);
}

/** True when Python's `float(text)` would succeed (GAIA's `is_float`). */
export function isPythonFloat(text: string): boolean {
  return parsePythonFloat(text) !== undefined;
}

const NON_ASCII_SPACE = /[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const DECIMAL_DIGIT = /\p{Nd}/u;

function toAsciiDigitsAndSpaces(text: string): string | undefined {
  // Fast path: pure ASCII needs no mapping (DEL, 0x7f, is rejected later by the grammar).
  if (!/[\u0080-\uffff]/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (code < 0x7f) out += ch;
    else if (NON_ASCII_SPACE.test(ch)) out += ' ';
    else if (DECIMAL_DIGIT.test(ch)) out += String(digitValue(code));
    else return undefined;
  }
  return out;
}

/**
 * Unicode lays decimal digits out in runs of ten, 0 to 9 (some runs touch, like the mathematical digits at
 * U+1D7CE), so a digit's value is its distance from the start of its run of Nd characters, modulo 10.
 */
function digitValue(code: number): number {
  let start = code;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

function removeUnderscores(text: string): string | undefined {
  if (!text.includes('_')) return text;
  let out = '';
  let prev = '';
  for (const ch of text) {
    const isDigit = ch >= '0' && ch <= '9';
    if (ch === '_') {
      if (!(prev >= '0' && prev <= '9')) return undefined;
    } else {
      if (prev === '_' && !isDigit) return undefined;
      out += ch;
    }
    prev = ch;
  }
  return prev === '_' ? undefined : out;
}
