import type { Task } from '@skillrl/core';
import { isContentWord, tokenize } from '../text/tokenize.js';

const PLACEHOLDER = /<[^<>]+>/;
// Words of a request that say how it is asked, not what is wanted.
const FILLER = new Set([
  'looking',
  'need',
  'want',
  'like',
  'buy',
  'find',
  'search',
  'am',
  'get',
  'please',
  'would',
]);

/**
 * Fills admissible-action templates such as WebShop's `search[<keywords>]`, which a classifier over a list
 * cannot write, with two queries read off the goal: its content words before any option or price clause
 * (at most eight), and the first three of them. Candidates without a placeholder pass through unchanged.
 */
export function expandTemplates(actions: readonly string[], task: Task): string[] {
  // A placeholder needs a '<': the cheap test first (this runs at every decision).
  if (!actions.some((a) => a.includes('<') && PLACEHOLDER.test(a))) return [...actions];
  const head = task.prompt.split(/\b(?:with\s+)?(?:color|colou?r|size|price)\s*:?|\bprice lower\b/i)[0] ?? '';
  const words = tokenize(head).filter((w) => isContentWord(w) && !FILLER.has(w));
  const queries = [...new Set([words.slice(0, 8).join(' '), words.slice(0, 3).join(' ')])].filter(
    (q) => q.length > 0,
  );
  const out: string[] = [];
  for (const a of actions) {
    if (!PLACEHOLDER.test(a)) out.push(a);
    else for (const q of queries) out.push(a.replace(PLACEHOLDER, q));
  }
  return [...new Set(out)];
}
