import { InvalidArgumentError, type Task, type Trajectory } from '@skillrl/core';
import { type AsyncVerifier, answerOf, checkThreshold, makeVerdict } from '../shared/index.js';

/** What a predicate may return: pass/fail, a score in [0, 1], or a score with its own reason. */
export type PredicateResult =
  | boolean
  | number
  | { score: number; reason?: string; details?: Record<string, unknown> };

export type PredicateFn = (
  answer: string,
  task: Task,
  trajectory: Trajectory,
) => PredicateResult | Promise<PredicateResult>;

export interface PredicateOptions {
  name?: string;
  fn: PredicateFn;
  /** An async predicate that has not settled after this many ms scores 0. Default: no limit. */
  timeoutMs?: number;
  extract?: (trajectory: Trajectory) => string;
  threshold?: number;
}

/**
 * A user-written check in plain JavaScript, sync or async. It runs in this process, unsandboxed: it is your
 * code, not the model's (use `codeTests` for model-written code). A predicate that throws, returns something
 * that is not a score, or times out gives score 0 and says why.
 */
export function predicate(options: PredicateOptions): AsyncVerifier {
  const name = options.name ?? (options.fn?.name || 'predicate');
  if (typeof options.fn !== 'function')
    throw new InvalidArgumentError(`${name} options.fn`, 'expected a function');
  const threshold = checkThreshold(name, options.threshold, 1);
  return {
    name,
    async verify(task, trajectory) {
      const answer = (options.extract ?? answerOf)(trajectory);
      let result: PredicateResult;
      let timer: NodeJS.Timeout | undefined;
      try {
        const pending = Promise.resolve().then(() => options.fn(answer, task, trajectory));
        result =
          options.timeoutMs === undefined
            ? await pending
            : await Promise.race([
                pending,
                new Promise<never>((_, reject) => {
                  timer = setTimeout(
                    () => reject(new Error(`timed out after ${options.timeoutMs} ms`)),
                    options.timeoutMs,
                  );
                }),
              ]);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return makeVerdict(0, threshold, `predicate failed: ${message}`, { error: message });
      } finally {
        if (timer) clearTimeout(timer);
      }
      if (typeof result === 'boolean') {
        return makeVerdict(
          result ? 1 : 0,
          threshold,
          result ? 'predicate returned true' : 'predicate returned false',
        );
      }
      const score = typeof result === 'number' ? result : result?.score;
      if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
        return makeVerdict(
          0,
          threshold,
          `predicate returned ${JSON.stringify(result)}, expected a boolean or a score in [0, 1]`,
        );
      }
      if (typeof result === 'number') return makeVerdict(score, threshold, `predicate returned ${score}`);
      return makeVerdict(score, threshold, result.reason ?? `predicate returned ${score}`, result.details);
    },
  };
}
