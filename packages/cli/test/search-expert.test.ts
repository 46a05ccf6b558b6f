import type { Environment, TaskAdapter } from '@skillrl/core';
import household from '@skillrl/task-household';
import { describe, expect, it } from 'vitest';
import { playSearchExpert } from '../bench/search-expert.mjs';

// The household adapter with environments cut down to what an agent sees: no game state to peek at.
const blind: TaskAdapter = {
  ...household,
  createEnvironment(task) {
    const env = household.createEnvironment(task);
    const view: Environment = {
      maxSteps: env.maxSteps,
      reset: () => env.reset(),
      step: (action: string) => env.step(action),
      admissibleActions: () => env.admissibleActions(),
    };
    return view;
  },
};

describe('bench/search-expert', () => {
  it('wins every held-out household task from observations and admissible actions alone', async () => {
    const tasks = await household.load({ split: 'valid_unseen', limit: 60, seed: 3 });
    const played: { actions: string[]; won: boolean }[] = [];
    for (const task of tasks) played.push(await playSearchExpert(blind, task));
    expect(tasks.filter((_, i) => !played[i]?.won).map((t) => t.id)).toEqual([]);
    // It searches: longer than the peeking planner's straight line, within the 50-step limit.
    const steps = played.map((p) => p.actions.length);
    expect(Math.max(...steps)).toBeLessThanOrEqual(50);
    expect(steps.reduce((a, b) => a + b, 0) / steps.length).toBeGreaterThan(8);
  });
});
