import { createRng, InvalidArgumentError, type Task, type TaskAdapter } from '@skillrl/core';
import { createSortingEnvironment } from './sorting-environment.js';

const SPLITS = ['train', 'test'] as const;
const FAMILIES = ['sort-short', 'sort-long'] as const;

/**
 * A complete third-party adapter: generated, seeded tasks in two families, an environment, a verifier
 * that reads the trajectory, a starting skill, and a step vocabulary. It imports `@skillrl/core` only.
 */
export function createSortingAdapter(): TaskAdapter {
  return {
    name: 'sorting',
    families: FAMILIES,
    splits: SPLITS,
    load({ split, limit = 50, seed = 0 }) {
      if (!(SPLITS as readonly string[]).includes(split)) {
        throw new InvalidArgumentError('split', `"${split}"; expected one of ${SPLITS.join(', ')}`);
      }
      const rng = createRng(seed).fork(split);
      return Array.from({ length: limit }, (_, index): Task => {
        const family = FAMILIES[index % 2] as string;
        const length = family === 'sort-short' ? 3 : 5;
        let row = rng.shuffle(Array.from({ length }, (_, i) => i + 1));
        // A sorted start would be a task already done: rotate it by one.
        if (row.every((v, i) => v === i + 1)) row = [...row.slice(1), row[0] as number];
        return {
          id: `sorting/${split}/${seed}/${index}`,
          family,
          split,
          prompt: `Sort the row ${row.join(' ')} in ascending order.`,
          answer: [...row].sort((a, b) => a - b),
          metadata: { row },
        };
      });
    },
    createEnvironment(task) {
      const row = task.metadata?.row;
      if (!Array.isArray(row) || !row.every((v) => typeof v === 'number')) {
        throw new InvalidArgumentError(
          'task.metadata.row',
          'expected the array of numbers this adapter stored',
        );
      }
      return createSortingEnvironment(row as number[]);
    },
    verifier: () => ({
      name: 'sorting-sorted',
      verify(_task, trajectory) {
        // Real runs record the environment's info at step.info.env (core's TrajectoryStep.info).
        const sorted = trajectory.steps.at(-1)?.info?.env?.sorted === true;
        return {
          score: sorted ? 1 : 0,
          passed: sorted,
          reason: sorted ? 'the row is sorted' : 'the row is not sorted',
        };
      },
    }),
    skills: () => [
      {
        name: 'sorting-bubble',
        description: 'Sort a row by neighbour swaps with the fewest moves. Use for every sorting task.',
        families: [...FAMILIES],
        body: '### GENERAL SKILLS ###\n1. Find the leftmost pair that is out of order and swap it.\n2. Repeat until no pair is out of order: every swap fixes exactly one inversion.\n',
      },
    ],
    stepVocabulary: () => ({
      'sort-short': ['find the leftmost pair out of order', 'swap the pair'],
      'sort-long': ['find the leftmost pair out of order', 'swap the pair', 'start again from the left'],
    }),
  };
}
