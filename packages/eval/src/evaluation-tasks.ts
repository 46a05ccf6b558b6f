import type { RunConfig, TaskSelection } from '@skillrl/orchestrator';

/** The tasks an evaluation runs on, and which part of the config chose their options. */
export interface EvaluationTasks {
  /** Split, limit (when any) and the seed the tasks are loaded with. */
  tasks: TaskSelection & { seed: number };
  /**
   * `tasks`, `internalize.test`, `internalize.validation` or `evolve.heldOut`: the selection of the config
   * whose options were used; `tasks.limit` for a split the config names nowhere (its `tasks.limit` applies).
   */
  from: 'tasks' | 'internalize.test' | 'internalize.validation' | 'evolve.heldOut' | 'tasks.limit';
}

/**
 * The tasks `skillrl eval` runs on, loaded as the run loads them: by default the config's `tasks` (split,
 * limit, seed: a config with `tasks.limit: 4` is evaluated on those 4 tasks). With another split, the
 * options the config gives that split (`internalize.test`, `internalize.validation`, `evolve.heldOut`, each
 * with the seed the run loads it with); a split the config names nowhere keeps `tasks.limit`, seeded as
 * `internalize.test` would be. `limit` (`--limit`) replaces the limit.
 */
export function evaluationTasks(
  config: RunConfig,
  options: { split?: string; limit?: number } = {},
): EvaluationTasks {
  const split = options.split ?? config.tasks.split;
  // In the order a held-out split is most likely meant, each with the seed the run loads it with.
  const named: [EvaluationTasks['from'], TaskSelection | undefined, number][] = [
    ['tasks', config.tasks, config.seed],
    ['internalize.test', config.internalize?.test, config.seed + 2],
    ['internalize.validation', config.internalize?.validation, config.seed + 1],
    ['evolve.heldOut', config.evolve?.heldOut, config.seed + 3],
  ];
  const found = named.find(([, selection]) => selection?.split === split);
  const [from, selection, seed]: [EvaluationTasks['from'], TaskSelection | undefined, number] = found ?? [
    'tasks.limit',
    undefined,
    config.seed + 2,
  ];
  const limit = options.limit ?? (selection ? selection.limit : config.tasks.limit);
  return {
    tasks: {
      split,
      ...(limit !== undefined ? { limit } : {}),
      seed: selection?.seed ?? seed,
    },
    from,
  };
}
