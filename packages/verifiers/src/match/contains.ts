import { InvalidArgumentError, type Task, type Trajectory } from '@skillrl/core';
import {
  type AsyncVerifier,
  answerOf,
  checkThreshold,
  makeVerdict,
  quote,
  referencesOf,
} from '../shared/index.js';

export interface ContainsOptions {
  name?: string;
  /** The strings to look for, or a function of the task. Default: the task's `answer` (a string or a list). */
  needles?: string[] | ((task: Task) => string[]);
  /** `any`: score 1 when at least one needle occurs. `all` (default): score = fraction of needles found. */
  mode?: 'any' | 'all';
  /** Default `false`: case is ignored. */
  caseSensitive?: boolean;
  /** Collapse runs of whitespace on both sides before searching. Default `true`. */
  collapseWhitespace?: boolean;
  extract?: (trajectory: Trajectory) => string;
  /** Default 1 (in `all` mode, every needle must be found to pass). */
  threshold?: number;
}

/** Looks for substrings of the answer. */
export function contains(options: ContainsOptions = {}): AsyncVerifier {
  const name = options.name ?? 'contains';
  const threshold = checkThreshold(name, options.threshold, 1);
  const mode = options.mode ?? 'all';
  if (mode !== 'any' && mode !== 'all') {
    throw new InvalidArgumentError(
      `${name} options.mode`,
      `expected "any" or "all", got ${JSON.stringify(mode)}`,
    );
  }
  const prep = (s: string) => {
    const spaced = options.collapseWhitespace === false ? s : s.replace(/\s+/g, ' ');
    return options.caseSensitive ? spaced : spaced.toLowerCase();
  };
  return {
    name,
    async verify(task, trajectory) {
      const needles =
        typeof options.needles === 'function'
          ? options.needles(task)
          : (options.needles ?? referencesOf(name, task));
      if (needles.length === 0)
        throw new InvalidArgumentError(`${name} needles`, 'expected at least one string to look for');
      const haystack = prep((options.extract ?? answerOf)(trajectory));
      const found = needles.filter((n) => haystack.includes(prep(n)));
      const missing = needles.filter((n) => !found.includes(n));
      const score = mode === 'any' ? (found.length > 0 ? 1 : 0) : found.length / needles.length;
      const reason =
        mode === 'any'
          ? found.length > 0
            ? `answer contains ${quote(found[0] ?? '')}`
            : `answer contains none of ${needles.map((n) => quote(n, 30)).join(', ')}`
          : missing.length === 0
            ? `answer contains all ${needles.length} required string(s)`
            : `answer lacks ${missing.map((n) => quote(n, 30)).join(', ')} (${found.length}/${needles.length} found)`;
      return makeVerdict(score, threshold, reason, { found, missing });
    },
  };
}
