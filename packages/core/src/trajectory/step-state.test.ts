import { describe, expect, it } from 'vitest';
import { stateKeyOf, stepRewardsOf } from './step-state.js';

const step = (observation: string, reward = 0, stateKey?: string) => ({
  index: 0,
  observation,
  action: 'a',
  reward,
  done: false,
  ...(stateKey !== undefined ? { stateKey } : {}),
});

describe('stateKeyOf', () => {
  it('equal observations give equal keys, different ones different keys; an environment key wins', () => {
    expect(stateKeyOf(step('You are in the middle of a room.'))).toBe(
      stateKeyOf(step('You are in the middle of a room.')),
    );
    expect(stateKeyOf(step('You are in the middle of a room.'))).not.toBe(stateKeyOf(step('You see a mug.')));
    expect(stateKeyOf(step('t=1 room', 0, 'room'))).toBe(stateKeyOf(step('t=2 room', 0, 'room')));
    // An environment key never collides with a hashed observation.
    expect(stateKeyOf(step('x', 0, 'x'))).not.toBe(stateKeyOf(step('x')));
  });
});

describe('stepRewardsOf', () => {
  it('keeps the environment rewards and puts what the score adds on the last step', () => {
    expect(stepRewardsOf({ steps: [step('a'), step('b'), step('c')], reward: 1 })).toEqual([0, 0, 1]);
    expect(stepRewardsOf({ steps: [step('a', 0.25), step('b', 0.75)], reward: 1 })).toEqual([0.25, 0.75]);
    expect(stepRewardsOf({ steps: [step('a', 1), step('b', 0)], reward: 0 })).toEqual([1, -1]);
    expect(stepRewardsOf({ steps: [], reward: 1 })).toEqual([]);
  });
});
