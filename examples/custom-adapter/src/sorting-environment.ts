import type { Environment, StepResult } from '@skillrl/core';

/** Moves left before the episode loop stops a sorting episode. */
export const SORTING_MAX_STEPS = 30;

function isSorted(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i++) if ((values[i - 1] as number) > (values[i] as number)) return false;
  return true;
}

/**
 * Sort a row of numbers by swapping neighbours. Actions: `swap i j` (1-based, j = i + 1). Reward 1 and the
 * episode ends when the row is sorted; anything else answers `Invalid move.`
 */
export function createSortingEnvironment(start: readonly number[]): Environment {
  let row = [...start];
  let steps = 0;
  const show = (): string => `The row is: ${row.join(' ')}.`;
  return {
    maxSteps: SORTING_MAX_STEPS,
    reset() {
      row = [...start];
      steps = 0;
      return `${show()} Sort it in ascending order by swapping neighbours.`;
    },
    admissibleActions() {
      return row.slice(1).map((_, i) => `swap ${i + 1} ${i + 2}`);
    },
    step(action: string): StepResult {
      steps++;
      const m = /^swap (\d+) (\d+)$/.exec(action.trim().toLowerCase());
      const i = m ? Number(m[1]) - 1 : -1;
      if (!m || Number(m[2]) !== i + 2 || i < 0 || i + 1 >= row.length) {
        return {
          observation: 'Invalid move.',
          reward: 0,
          done: steps >= SORTING_MAX_STEPS,
          info: { sorted: false },
        };
      }
      [row[i], row[i + 1]] = [row[i + 1] as number, row[i] as number];
      const sorted = isSorted(row);
      return {
        observation: show(),
        reward: sorted ? 1 : 0,
        done: sorted || steps >= SORTING_MAX_STEPS,
        info: { sorted },
      };
    },
  };
}
