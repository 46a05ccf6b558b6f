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
      const won = trajectory.steps.at(-1)?.info?.won === true;
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
