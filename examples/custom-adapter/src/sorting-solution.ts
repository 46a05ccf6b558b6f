import type { Task } from '@skillrl/core';

/**
 * An expert's actions for a sorting task: swap the leftmost pair out of order until none is (every swap
 * fixes one inversion, so this is the shortest solution). The conformance kit plays it (`solve`) to check
 * that the verifier passes an episode the adapter itself solves.
 */
export function sortingSolution(task: Task): string[] {
  const row = [...((task.metadata?.row as number[] | undefined) ?? [])];
  const actions: string[] = [];
  for (;;) {
    const i = row.findIndex((v, k) => k + 1 < row.length && v > (row[k + 1] as number));
    if (i < 0) return actions;
    [row[i], row[i + 1]] = [row[i + 1] as number, row[i] as number];
    actions.push(`swap ${i + 1} ${i + 2}`);
  }
}
