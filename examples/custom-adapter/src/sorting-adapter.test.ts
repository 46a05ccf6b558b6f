import type { StepResult, Task, Trajectory } from '@skillrl/core';
import { describeAdapterConformance } from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import sorting, { sortingSolution } from './index.js';

// The one line every published adapter's tests start with. `solve` plays the adapter's own solution
// through the episode runner real runs use, and fails a verifier that never passes it.
describeAdapterConformance(sorting, { limit: 8, episodes: 4, solve: sortingSolution });

describe('the sorting adapter', () => {
  it('sorts 3 1 2 in two swaps and the verifier passes it', async () => {
    const task: Task = {
      id: 't',
      family: 'sort-short',
      split: 'test',
      prompt: '',
      metadata: { row: [3, 1, 2] },
    };
    const env = await sorting.createEnvironment(task);
    expect(await env.reset()).toBe('The row is: 3 1 2. Sort it in ascending order by swapping neighbours.');
    // 3 1 2 → swap 1 2 → 1 3 2 → swap 2 3 → 1 2 3 (two inversions, two swaps).
    const first = await env.step('swap 1 2');
    expect(first).toMatchObject({ observation: 'The row is: 1 3 2.', reward: 0, done: false });
    const second = await env.step('swap 2 3');
    expect(second).toMatchObject({ observation: 'The row is: 1 2 3.', reward: 1, done: true });
    expect(await env.step('swap 3 4')).toMatchObject({ observation: 'Invalid move.' });
    const trajectory: Trajectory = {
      id: 'r',
      taskId: 't',
      family: 'sort-short',
      condition: 0,
      reward: 1,
      verdict: { score: 0, passed: false },
      // As the episode runner records a step: the environment's info under `info.env`.
      steps: [first, second].map((r, index) => ({
        index,
        observation: r.observation,
        action: index === 0 ? 'swap 1 2' : 'swap 2 3',
        reward: r.reward,
        done: r.done,
        info: { env: r.info },
      })),
    };
    expect(await sorting.verifier(task).verify(task, trajectory)).toMatchObject({ score: 1, passed: true });
  });

  it("solves every task with the expert's swaps, the fewest there are", async () => {
    expect(
      sortingSolution({
        id: 't',
        family: 'sort-short',
        split: 'test',
        prompt: '',
        metadata: { row: [3, 1, 2] },
      }),
    ).toEqual(['swap 1 2', 'swap 2 3']);
    for (const task of await sorting.load({ split: 'train', limit: 20, seed: 5 })) {
      const env = await sorting.createEnvironment(task);
      await env.reset();
      let last: StepResult = { observation: '', reward: 0, done: false };
      for (const action of sortingSolution(task)) last = await env.step(action);
      expect(last).toMatchObject({ done: true, info: { sorted: true } });
    }
  });

  it('never starts sorted', async () => {
    for (const task of await sorting.load({ split: 'train', limit: 200, seed: 3 })) {
      const row = task.metadata?.row as number[];
      expect(row.some((v, i) => v !== i + 1)).toBe(true);
    }
  });
});
