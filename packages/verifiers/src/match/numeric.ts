import { InvalidArgumentError } from '@skillrl/core';
import {
  type AsyncVerifier,
  answerOf,
  checkThreshold,
  makeVerdict,
  quote,
  type ReferenceOptions,
  referencesOf,
} from '../shared/index.js';
import { type ParsedNumber, parseNumbers } from './parse-numbers.js';

export interface NumericOptions extends ReferenceOptions {
  /** Absolute tolerance. Default 0. */
  absTol?: number;
  /** Relative tolerance, against the reference's magnitude. Default 1e-9 (Python's `math.isclose`). */
  relTol?: number;
  /**
   * Which number of the answer is the answer: the `last` one (GSM8K's convention: models reason first and
   * conclude), the `first`, or `only` (the answer must contain exactly one number). Default `last`.
   */
  pick?: 'last' | 'first' | 'only';
  /** `'45%'` reads as 45 (`keep`, default) or as 0.45 (`fraction`). Applies to answer and reference alike. */
  percent?: 'keep' | 'fraction';
}

/**
 * Score 1 when the answer's number is within tolerance of a reference number:
 * `|a − r| <= max(absTol, relTol · |r|)`. Numbers may carry commas, `%`, `$`, `€`, `£`, `¥`.
 */
export function numeric(options: NumericOptions = {}): AsyncVerifier {
  const name = options.name ?? 'numeric';
  const threshold = checkThreshold(name, options.threshold, 1);
  const absTol = options.absTol ?? 0;
  const relTol = options.relTol ?? 1e-9;
  for (const [key, value] of [
    ['absTol', absTol],
    ['relTol', relTol],
  ] as const) {
    if (!(typeof value === 'number' && value >= 0)) {
      throw new InvalidArgumentError(
        `${name} options.${key}`,
        `expected a number >= 0, got ${String(value)}`,
      );
    }
  }
  const pick = options.pick ?? 'last';
  const asValue = (n: ParsedNumber) =>
    n.percent && options.percent === 'fraction' ? n.value / 100 : n.value;
  return {
    name,
    async verify(task, trajectory) {
      const references = referencesOf(name, task, options.reference).map((r) => {
        const nums = parseNumbers(r);
        if (nums.length !== 1) {
          throw new InvalidArgumentError(
            `${name} reference`,
            `expected exactly one number in ${quote(r)}, found ${nums.length}`,
          );
        }
        return asValue(nums[0] as ParsedNumber);
      });
      const text = (options.extract ?? answerOf)(trajectory);
      const found = parseNumbers(text);
      if (found.length === 0) return makeVerdict(0, threshold, `no number in the answer ${quote(text)}`);
      if (pick === 'only' && found.length > 1) {
        return makeVerdict(
          0,
          threshold,
          `expected one number in the answer, found ${found.length}: ${quote(text)}`,
        );
      }
      const chosen = (pick === 'first' ? found[0] : found[found.length - 1]) as ParsedNumber;
      const value = asValue(chosen);
      const details = { value, references };
      for (const r of references) {
        const tolerance = Math.max(absTol, relTol * Math.abs(r));
        if (Math.abs(value - r) <= tolerance) {
          return makeVerdict(
            1,
            threshold,
            `${value} is within ${Number(tolerance.toPrecision(3))} of the reference ${r}`,
            details,
          );
        }
      }
      return makeVerdict(
        0,
        threshold,
        `${value} (read from ${quote(chosen.text)}) is not within tolerance of ${references.join(' or ')}`,
        details,
      );
    },
  };
}
