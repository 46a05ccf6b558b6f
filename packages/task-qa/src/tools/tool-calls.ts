import { InvalidArgumentError } from '@skillrl/core';

/**
 * Tool calls an episode may make before it answers, by default. WebWalkerQA's agent is given 10–15 actions
 * (BENCHMARKS.md); GAIA's paper fixes no number, and 10 keeps a runaway loop of searches bounded.
 */
export const DEFAULT_TOOL_CALLS = 10;

export function checkToolCalls(value: number | undefined, option: string): number {
  const calls = value ?? DEFAULT_TOOL_CALLS;
  if (!(Number.isInteger(calls) && calls >= 0)) {
    throw new InvalidArgumentError(option, `expected an integer >= 0, got ${String(value)}`);
  }
  return calls;
}
