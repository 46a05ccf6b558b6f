// Types of search-expert.mjs, for the orchestrator's tests.
import type { Task, TaskAdapter } from '@skillrl/core';
export function createSearchExpert(task: Task): {
  next(observation: string, admissibleActions: readonly string[]): string;
};
export function playSearchExpert(
  adapter: TaskAdapter,
  task: Task,
): Promise<{ actions: string[]; won: boolean }>;
