import { describe, expect, it } from 'vitest';
import type { TrajectoryStep } from '../contracts/trajectory.js';
import { environmentWon, stepWon } from './environment-won.js';

const step = (reward: number, env?: Record<string, unknown>): TrajectoryStep =>
  ({
    index: 0,
    observation: '',
    action: 'a',
    reward,
    done: true,
    ...(env ? { info: { env } } : {}),
  }) as TrajectoryStep;

describe('environmentWon', () => {
  it("reads the last step's info.env flags and its reward", () => {
    expect(environmentWon({ steps: [step(0, { won: true })] })).toBe(true);
    expect(environmentWon({ steps: [step(0, { success: true })] })).toBe(true);
    expect(environmentWon({ steps: [step(1)] })).toBe(true);
    expect(environmentWon({ steps: [step(0.99)] })).toBe(false);
    expect(environmentWon({ steps: [] })).toBe(false);
    // Only the last step decides: a win flag earlier in the episode is not a win.
    expect(environmentWon({ steps: [step(0, { won: true }), step(0)] })).toBe(false);
  });
  it('counts only the literal true, not truthy values', () => {
    expect(stepWon(step(0, { won: 'true' }))).toBe(false);
    expect(stepWon(step(0, { won: 1 }))).toBe(false);
    expect(stepWon(step(0, { success: 'yes' }))).toBe(false);
    expect(stepWon(undefined)).toBe(false);
  });
  it('does not read flags outside info.env (where a verifier bug would put them)', () => {
    const misplaced = { index: 0, observation: '', action: 'a', reward: 0, done: true, info: { won: true } };
    expect(stepWon(misplaced as unknown as TrajectoryStep)).toBe(false);
  });
});
