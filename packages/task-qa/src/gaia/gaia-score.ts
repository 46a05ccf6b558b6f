import { deletePunctuation, PY_WHITESPACE_GLOBAL } from '../text/python-whitespace.js';
import { isPythonFloat, parsePythonFloat } from './parse-python-float.js';

/**
 * GAIA's `normalize_number_str`: deletes every `$`, `%` and `,`, then Python's `float()`; a string that still
 * does not parse becomes +infinity (so it equals no finite ground truth, but does equal a ground truth of
 * `inf`, exactly as in the official scorer).
 */
export function normalizeNumberStr(numberStr: string): number {
  const value = parsePythonFloat(numberStr.replace(/[$%,]/g, ''));
  return value === undefined ? Number.POSITIVE_INFINITY : value;
}

/** GAIA's `split_string`: `re.split('[,;]', s)`, keeping empty pieces (`'a,'` → `['a', '']`). */
export function splitString(text: string): string[] {
  return text.split(/[,;]/);
}

/**
 * GAIA's `normalize_str`: removes every whitespace character (Python's `\s`, anywhere, so `sea gull` equals
 * `seagull`), lower-cases, and by default deletes ASCII punctuation (`string.punctuation`).
 */
export function normalizeStr(input: string, removePunct = true): string {
  const lowered = input.replace(PY_WHITESPACE_GLOBAL, '').toLowerCase();
  return removePunct ? deletePunctuation(lowered) : lowered;
}

/** Which rule of the official scorer decided: the ground truth's shape picks it. */
export type GaiaRule = 'number' | 'list' | 'string';

export interface GaiaScoreDetails {
  correct: boolean;
  rule: GaiaRule;
  /** List rule: the element-wise results; absent when the lengths differ. */
  elements?: boolean[];
  /** List rule: both element counts, reported when they differ. */
  lengths?: { answer: number; truth: number };
}

/**
 * GAIA's official `question_scorer` (gaia-benchmark/leaderboard `scorer.py`), rule for rule:
 *
 * - a missing answer (`null`/`undefined`) is the string `"None"`;
 * - ground truth that Python's `float()` accepts: `normalizeNumberStr(answer) == float(truth)`, so `nan`
 *   never matches and `1e3` matches `1000`;
 * - else a ground truth containing `,` or `;`: both split on `[,;]`, the counts must match, then element by
 *   element — a numeric truth element by the number rule (the answer element is not stripped; `float()` ignores
 *   surrounding spaces), others by `normalizeStr(…, false)`: whitespace removed and lower-cased, punctuation
 *   kept. Note `1,000` is not a Python float, so such a truth takes this list rule;
 * - else `normalizeStr(answer) == normalizeStr(truth)`.
 */
export function gaiaScoreDetails(
  modelAnswer: string | null | undefined,
  groundTruth: string,
): GaiaScoreDetails {
  const answer = modelAnswer ?? 'None';
  if (isPythonFloat(groundTruth)) {
    return { correct: normalizeNumberStr(answer) === parsePythonFloat(groundTruth), rule: 'number' };
  }
  if (groundTruth.includes(',') || groundTruth.includes(';')) {
    const truthElements = splitString(groundTruth);
    const answerElements = splitString(answer);
    if (truthElements.length !== answerElements.length) {
      return {
        correct: false,
        rule: 'list',
        lengths: { answer: answerElements.length, truth: truthElements.length },
      };
    }
    const elements = truthElements.map((truth, i) => {
      const given = answerElements[i] as string;
      if (isPythonFloat(truth)) return normalizeNumberStr(given) === parsePythonFloat(truth);
      return normalizeStr(given, false) === normalizeStr(truth, false);
    });
    return { correct: elements.every(Boolean), rule: 'list', elements };
  }
  return { correct: normalizeStr(answer) === normalizeStr(groundTruth), rule: 'string' };
}

/** GAIA's official `question_scorer`: true when the answer counts as correct. See `gaiaScoreDetails`. */
export function gaiaScore(modelAnswer: string | null | undefined, groundTruth: string): boolean {
  return gaiaScoreDetails(modelAnswer, groundTruth).correct;
}
