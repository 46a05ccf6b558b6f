import type { Task, Trajectory } from '@skillrl/core';
import { describeAdapterConformance } from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import sorting from './index.js';

// The one line every published adapter's tests start with.
describeAdapterConformance(sorting, { limit: 8, episodes: 4 });

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
      steps: [first, second].map((r, index) => ({
        ...r,
        index,
        action: index === 0 ? 'swap 1 2' : 'swap 2 3',
      })),
    };
    expect(await sorting.verifier(task).verify(task, trajectory)).toMatchObject({ score: 1, passed: true });
  });

  it('never starts sorted', async () => {
    for (const task of await sorting.load({ split: 'train', limit: 200, seed: 3 })) {
      const row = task.metadata?.row as number[];
      expect(row.some((v, i) => v !== i + 1)).toBe(true);
    }
  });
});
