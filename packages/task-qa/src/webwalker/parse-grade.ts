import {
  deletePunctuation,
  PY_WHITESPACE_CLASS,
  pythonSplit,
  pythonStrip,
} from '../text/python-whitespace.js';

export interface WebWalkerGrade {
  /** `CORRECT`, `INCORRECT`, or `null` when the judge's reply has no grade. */
  value: 'CORRECT' | 'INCORRECT' | null;
  /** 1, 0, or `null` with `value`. */
  score: 1 | 0 | null;
  /** The judge's reply, stripped. */
  reasoning: string;
}

const GRADE = new RegExp(`grade:[${PY_WHITESPACE_CLASS}]*(correct|incorrect)`, 'i');

/**
 * LangChain's `_parse_string_eval_output` / `_get_score`, which WebWalkerQA's evaluation uses: the first
 * `GRADE: CORRECT|INCORRECT` anywhere (any case); failing that, the first word, then the last word, with ASCII
 * punctuation deleted, compared case-insensitively. Otherwise no grade (`null`) — the official script then
 * crashes on that row and leaves it out of every average.
 */
export function parseWebWalkerGrade(text: string): WebWalkerGrade {
  const reasoning = pythonStrip(text);
  const match = GRADE.exec(reasoning);
  if (match) {
    const word = (match[1] as string).toUpperCase();
    return word === 'CORRECT'
      ? { value: 'CORRECT', score: 1, reasoning }
      : { value: 'INCORRECT', score: 0, reasoning };
  }
  const words = pythonSplit(reasoning);
  for (const word of [words[0], words[words.length - 1]]) {
    if (word === undefined) break;
    const bare = deletePunctuation(word).toUpperCase();
    if (bare === 'CORRECT') return { value: 'CORRECT', score: 1, reasoning };
    if (bare === 'INCORRECT') return { value: 'INCORRECT', score: 0, reasoning };
  }
  return { value: null, score: null, reasoning };
}
