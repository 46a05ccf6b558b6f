import type { Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { envReward } from './env-reward.js';

const task: Task = { id: 't', family: 'pick', split: 'test', prompt: 'Q' };
const traj = (rewards: number[], reward = 0, extra: Partial<Trajectory> = {}): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'pick',
  condition: 1,
  steps: rewards.map((r, index) => ({
    index,
    observation: 'o',
    action: 'a',
    reward: r,
    done: index === rewards.length - 1,
  })),
  reward,
  verdict: { score: 0, passed: false },
  ...extra,
});

describe('envReward', () => {
  it('auto reads the final step reward, or trajectory.reward without steps', async () => {
    const v = envReward();
    expect(await v.verify(task, traj([0, 0, 1]))).toMatchObject({
      score: 1,
      passed: true,
      reason: 'step 2 reward = 1',
    });
    expect(await v.verify(task, traj([], 0.5))).toMatchObject({
      score: 0.5,
      passed: false,
      reason: 'trajectory.reward = 0.5',
    });
  });

  it('sum adds the step rewards; range maps linearly and clamps', async () => {
    // sum = 2 + 3 = 5; range [0, 10] → 0.5
    expect((await envReward({ source: 'sum', range: [0, 10] }).verify(task, traj([2, 3]))).score).toBe(0.5);
    // range [-1, 1]: reward -1 → 0, reward 3 → clamped to 1
    expect((await envReward({ range: [-1, 1] }).verify(task, traj([-1]))).score).toBe(0);
    expect((await envReward({ range: [-1, 1] }).verify(task, traj([3]))).score).toBe(1);
    expect((await envReward({ source: 'trajectory' }).verify(task, traj([1], 0))).score).toBe(0);
  });

  it('takes a custom map and a threshold', async () => {
    const v = envReward({ map: (r) => (r > 0 ? 0.7 : 0), threshold: 0.6 });
    expect(await v.verify(task, traj([5]))).toMatchObject({ score: 0.7, passed: true });
  });

  it('scores 0 for an episode that ended with an error', async () => {
    const v = await envReward().verify(
      task,
      traj([1], 1, { error: { code: 'MODEL_FAILED', message: 'retries exhausted' } }),
    );
    expect(v).toMatchObject({
      score: 0,
      passed: false,
      reason: 'episode failed (MODEL_FAILED): retries exhausted',
    });
  });

  it('rejects an empty range', () => {
    expect(() => envReward({ range: [1, 1] })).toThrow(/options\.range/);
  });
});
