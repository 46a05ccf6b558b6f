import type { Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { episodeSummary } from './episode-summary.js';

const step = (index: number, observation: string, invalid = false) => ({
  index,
  observation,
  action: 'go to x',
  reward: 0,
  done: false,
  ...(invalid ? { invalid } : {}),
});

describe('episodeSummary', () => {
  it('a failed episode: first invalid step, last observation, verifier reason', () => {
    const t: Trajectory = {
      id: 'g1/t:k0:c1:i0',
      taskId: 't',
      family: 'f',
      condition: 1,
      steps: [step(0, 'start'), step(1, 'nothing happens', true), step(2, 'a drawer')],
      reward: 0,
      verdict: { score: 0, passed: false, reason: 'goal not reached' },
    };
    expect(episodeSummary(t)).toEqual({
      trajectoryId: 'g1/t:k0:c1:i0',
      reward: 0,
      passed: false,
      failingStep: 1,
      lastObservation: 'a drawer',
      reason: 'goal not reached',
    });
  });

  it('a failed episode without invalid steps fails at its last step; a success has no failing step', () => {
    const base = { id: 'x', taskId: 't', family: 'f', condition: 0 as const, reward: 0 };
    const failed = episodeSummary({
      ...base,
      steps: [step(0, 'a'), step(1, 'b')],
      verdict: { score: 0, passed: false },
    });
    expect(failed.failingStep).toBe(1);
    const passed = episodeSummary({
      ...base,
      reward: 1,
      steps: [step(0, 'a')],
      verdict: { score: 1, passed: true },
    });
    expect(passed.failingStep).toBeUndefined();
  });
});
