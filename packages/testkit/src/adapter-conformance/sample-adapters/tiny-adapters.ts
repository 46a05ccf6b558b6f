import { createRng, type Environment, type Task, type TaskAdapter } from '@skillrl/core';

/** A walk on the integers: reach the task's target with `up` and `down` within 12 steps. */
function walkEnvironment(target: number): Environment {
  let at = 0;
  return {
    maxSteps: 12,
    reset() {
      at = 0;
      return `You stand at 0. Reach ${target}.`;
    },
    admissibleActions: () => ['up', 'down'],
    step(action) {
      if (action === 'up') at++;
      else if (action === 'down') at--;
      else return { observation: 'Nothing happens.', reward: 0, done: false };
      const won = at === target;
      return { observation: `You stand at ${at}.`, reward: won ? 1 : 0, done: won, info: { won } };
    },
  };
}

/** A correct adapter, generated from its seed. */
export const walkAdapter: TaskAdapter = {
  name: 'walk',
  families: ['climb', 'descend'],
  splits: ['train', 'test'],
  load({ split, limit = 4, seed = 0 }) {
    const rng = createRng(seed).fork(split);
    return Array.from({ length: limit }, (_, i): Task => {
      const target = rng.int(1, 5) * (i % 2 === 0 ? 1 : -1);
      return {
        id: `walk/${split}/${seed}/${i}`,
        family: target > 0 ? 'climb' : 'descend',
        split,
        prompt: `Reach ${target}.`,
        metadata: { target },
      };
    });
  },
  createEnvironment: (task) => walkEnvironment(Number(task.metadata?.target)),
  verifier: () => ({
    name: 'walk-won',
    verify: (_task, trajectory) => {
      // Real runs record the environment's info at step.info.env.
      const won = trajectory.steps.at(-1)?.info?.env?.won === true;
      return { score: won ? 1 : 0, passed: won };
    },
  }),
  skills: () => [
    {
      name: 'walk-straight',
      description: 'Walk towards the target without turning back.',
      body: '1. Compare the target with 0.\n2. Repeat `up` or `down` until you arrive.\n',
      families: ['climb', 'descend'],
    },
  ],
  stepVocabulary: () => ({ climb: ['step up'], descend: ['step down'] }),
};

/** The walk's solution: straight to the target. */
export function solveWalk(task: Task): string[] {
  const target = Number(task.metadata?.target);
  return Array.from({ length: Math.abs(target) }, () => (target > 0 ? 'up' : 'down'));
}

/** Sort three numbers by swapping neighbours; the environment's info says whether the row is sorted. */
function sortingEnvironment(start: readonly number[]): Environment {
  let row = [...start];
  return {
    maxSteps: 6,
    reset() {
      row = [...start];
      return `The row is ${row.join(' ')}.`;
    },
    admissibleActions: () => ['swap 1 2', 'swap 2 3'],
    step(action) {
      const i = action === 'swap 1 2' ? 0 : action === 'swap 2 3' ? 1 : -1;
      if (i >= 0) [row[i], row[i + 1]] = [row[i + 1] as number, row[i] as number];
      const sorted = row.every((v, k) => k === 0 || (row[k - 1] as number) <= v);
      return {
        observation: `The row is ${row.join(' ')}.`,
        reward: sorted ? 1 : 0,
        done: sorted,
        info: { sorted },
      };
    },
  };
}

/** Bubble sort's swaps for a row: a solution to a sorting task. */
export function solveSorting(task: Task): string[] {
  const row = [...((task.metadata?.row as number[] | undefined) ?? [])];
  const actions: string[] = [];
  for (let pass = 0; pass < row.length; pass++) {
    for (let i = 0; i + 1 < row.length; i++) {
      if ((row[i] as number) > (row[i + 1] as number)) {
        [row[i], row[i + 1]] = [row[i + 1] as number, row[i] as number];
        actions.push(`swap ${i + 1} ${i + 2}`);
      }
    }
  }
  return actions;
}

/**
 * A sorting adapter whose verifier reads `sorted` from the last step's info: at `info.env.sorted`, where
 * real runs record the environment's info, or at `info.sorted`, where they never do (the bug conformance
 * must catch: such a verifier scores 0 in every real run).
 */
export function sortingAdapter(reads: 'info.env.sorted' | 'info.sorted'): TaskAdapter {
  return {
    name: `sorting-reading-${reads.replaceAll('.', '-')}`,
    families: ['sort'],
    splits: ['train'],
    load({ split, limit = 4, seed = 0 }) {
      const rng = createRng(seed).fork(split);
      return Array.from({ length: limit }, (_, i): Task => {
        let row = rng.shuffle([1, 2, 3]);
        if (row.join() === '1,2,3') row = [3, 1, 2];
        return {
          id: `sort/${split}/${seed}/${i}`,
          family: 'sort',
          split,
          prompt: 'Sort.',
          metadata: { row },
        };
      });
    },
    createEnvironment: (task) => sortingEnvironment(task.metadata?.row as number[]),
    verifier: () => ({
      name: `sorted-at-${reads}`,
      verify: (_task, trajectory) => {
        const info = trajectory.steps.at(-1)?.info;
        const sorted = (reads === 'info.env.sorted' ? info?.env?.sorted : info?.sorted) === true;
        return { score: sorted ? 1 : 0, passed: sorted };
      },
    }),
  };
}

/**
 * A broken adapter: a task without an id, a family it does not declare, tasks that ignore the seed, an
 * environment with a non-numeric reward, a verifier scoring 2, and a skill whose name breaks the rules.
 */
export const brokenAdapter: TaskAdapter = {
  name: 'broken',
  families: ['one'],
  splits: ['train'],
  load: ({ split }) => [
    { id: '', family: 'one', split, prompt: 'x' },
    { id: 'b', family: 'two', split, prompt: 'y' },
  ],
  createEnvironment: () => ({
    maxSteps: 3,
    reset: () => 'start',
    step: () => ({ observation: 'ok', reward: Number.NaN, done: false }),
  }),
  verifier: () => ({ name: 'too-generous', verify: () => ({ score: 2, passed: true }) }),
  skills: () => [{ name: 'Bad Name', description: 'd', body: 'b' }],
};

/** What the pick adapter's verifier reads: the first is right, the others are the traps the kit catches. */
export type PickVerifierReads = 'info.env.won' | 'trajectory.reward' | 'the last environment';

/**
 * Pick the shown word among three, within three tries; the environment reads the action case-insensitively,
 * lists the words in lower case, and says `won` (reward 1). The verifier reads the outcome from the last
 * step's `info.env.won` (right), from `trajectory.reward` (0 until the runner sets it from the verdict: every
 * won episode scores 0), or from the last environment created instead of the trajectory it is given.
 */
export function pickAdapter(
  reads: PickVerifierReads,
  name = `pick-reading-${reads.replaceAll(/\W+/g, '-')}`,
) {
  let lastEnvironment = { won: false };
  const adapter: TaskAdapter = {
    name,
    families: ['pick'],
    splits: ['train'],
    load({ split, limit = 4, seed = 0 }) {
      const rng = createRng(seed).fork(split);
      return Array.from({ length: limit }, (_, i): Task => {
        const offered = rng.shuffle(['ant', 'bee', 'cat', 'dog', 'elk']).slice(0, 3);
        const word = rng.pick(offered);
        return {
          id: `pick/${split}/${seed}/${i}`,
          family: 'pick',
          split,
          prompt: `Pick ${word}.`,
          answer: word,
          metadata: { offered },
        };
      });
    },
    createEnvironment(task) {
      const state = { won: false, tries: 0 };
      lastEnvironment = state;
      const offered = task.metadata?.offered as string[];
      return {
        maxSteps: 3,
        reset: () => `Pick ${String(task.answer)} among ${offered.join(', ')}.`,
        admissibleActions: () => [...offered],
        step(action) {
          state.tries++;
          state.won = action.trim().toLowerCase() === task.answer;
          return {
            observation: state.won ? 'Right.' : 'Wrong.',
            reward: state.won ? 1 : 0,
            done: state.won || state.tries >= 3,
            info: { won: state.won },
          };
        },
      };
    },
    verifier: () => ({
      name: `won-from-${reads.replaceAll(/\W+/g, '-')}`,
      verify: (_task, trajectory) => {
        const won =
          reads === 'info.env.won'
            ? trajectory.steps.at(-1)?.info?.env?.won === true
            : reads === 'trajectory.reward'
              ? trajectory.reward >= 1
              : lastEnvironment.won;
        return { score: won ? 1 : 0, passed: won };
      },
    }),
  };
  return adapter;
}

/** The pick task's solution: the shown word, as listed. */
export const solvePick = (task: Task): string[] => [String(task.answer)];

/** The same word shouted: the environment takes it, but it is not among the admissible actions. */
export const solvePickShouting = (task: Task): string[] => [String(task.answer).toUpperCase()];
