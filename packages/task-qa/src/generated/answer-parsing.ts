import { extractFinalAnswer } from '../gaia/extract-final-answer.js';

/** The part of a reply that holds the answer: after the last `FINAL ANSWER:` if any, else all of it, trimmed. */
export function answerPart(text: string): string {
  return (extractFinalAnswer(text) ?? text).trim();
}

/**
 * The last number written in the text, if it is an integer (thousands separators allowed: `1,234`; `7.0` counts
 * as 7), else `undefined` — so `3.5` never reads as 5, and `1,2,3` reads as the list it is (last: 3).
 */
export function lastInteger(text: string): number | undefined {
  const numbers = text.match(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g);
  const last = numbers?.[numbers.length - 1];
  if (last === undefined) return undefined;
  const value = Number(last.replace(/,/g, ''));
  return Number.isSafeInteger(value) ? value : undefined;
}
