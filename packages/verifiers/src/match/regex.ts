import type { Trajectory } from '@skillrl/core';
import { InvalidArgumentError, type Task } from '@skillrl/core';
import { type AsyncVerifier, answerOf, checkThreshold, makeVerdict, quote } from '../shared/index.js';

export interface RegexOptions {
  name?: string;
  /** The pattern, or a function of the task that returns it (for per-task patterns). */
  pattern: string | RegExp | ((task: Task) => string | RegExp);
  /** Flags when `pattern` is a string. Default none. */
  flags?: string;
  /** `search`: the pattern may match anywhere (default). `full`: it must match the whole (trimmed) answer. */
  mode?: 'search' | 'full';
  extract?: (trajectory: Trajectory) => string;
  threshold?: number;
}

function compile(name: string, pattern: string | RegExp, flags: string | undefined, full: boolean): RegExp {
  try {
    const source = pattern instanceof RegExp ? pattern.source : pattern;
    const f = (pattern instanceof RegExp ? pattern.flags : (flags ?? '')).replace(/[gy]/g, '');
    return new RegExp(full ? `^(?:${source})$` : source, f);
  } catch (cause) {
    throw new InvalidArgumentError(
      `${name} options.pattern`,
      `not a valid regular expression: ${String(pattern)}`,
      { cause },
    );
  }
}

/** Score 1 when the answer matches the pattern, else 0. `details.match` holds the matched text and groups. */
export function regex(options: RegexOptions): AsyncVerifier {
  const name = options.name ?? 'regex';
  const threshold = checkThreshold(name, options.threshold, 1);
  const full = options.mode === 'full';
  if (options.pattern === undefined)
    throw new InvalidArgumentError(`${name} options.pattern`, 'a pattern is required');
  const fixed =
    typeof options.pattern === 'function' ? undefined : compile(name, options.pattern, options.flags, full);
  return {
    name,
    async verify(task, trajectory) {
      const re =
        fixed ??
        compile(name, (options.pattern as (task: Task) => string | RegExp)(task), options.flags, full);
      const raw = (options.extract ?? answerOf)(trajectory);
      const text = full ? raw.trim() : raw;
      const m = re.exec(text);
      return m
        ? makeVerdict(1, threshold, `answer matches /${re.source}/`, {
            match: [...m],
            groups: m.groups ?? null,
          })
        : makeVerdict(0, threshold, `answer ${quote(text)} does not match /${re.source}/${re.flags}`);
    },
  };
}
