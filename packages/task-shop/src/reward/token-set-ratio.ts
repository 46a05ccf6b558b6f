import * as fuzz from 'fuzzball';
import type { OptionValue } from './normalize-color.js';

const memo = new Map<string, number>();
const MEMO_LIMIT = 100_000;

/** Python's `repr` of a `(name, value)` tuple, which thefuzz falls back to (`str(s)`) for non-strings. */
function pythonTupleRepr(pair: readonly [string, string]): string {
  const quote = (s: string) =>
    s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/'/g, "\\'")}'`;
  return `(${quote(pair[0])}, ${quote(pair[1])})`;
}

/**
 * `thefuzz.fuzz.token_set_ratio` with its defaults (`force_ascii=True`, `full_process=True`): both sides
 * are lower-cased, non-alphanumerics become spaces, and the score is an integer in [0, 100]. A pair is
 * compared through its Python tuple text, as thefuzz does; the punctuation of that text is removed by the
 * same processing, so `('size', 'large')` scores as "size large".
 */
export function tokenSetRatio(a: OptionValue, b: OptionValue): number {
  const left = typeof a === 'string' ? a : pythonTupleRepr(a);
  const right = typeof b === 'string' ? b : pythonTupleRepr(b);
  // Memoised: the same attribute and option pairs recur across purchases, and the ratio is pure.
  const key = `${left}\u0000${right}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const score = fuzz.token_set_ratio(left, right, { force_ascii: true, full_process: true });
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, score);
  return score;
}
