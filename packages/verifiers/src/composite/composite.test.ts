import type { Task, Trajectory, Verifier } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { composite } from './composite.js';

const task: Task = { id: 't', family: 'f', split: 'test', prompt: 'Q' };
const traj: Trajectory = {
  id: 'r',
  taskId: 't',
  family: 'f',
  condition: 0,
  steps: [],
  answer: 'x',
  reward: 0,
  verdict: { score: 0, passed: false },
};
const fixed = (name: string, score: number, passed = score >= 1): Verifier => ({
  name,
  verify: async () => ({ score, passed, reason: `${name} says ${score}` }),
});

describe('composite', () => {
  it('all: passes only when every part passes; score is the lowest', async () => {
    const pass = await composite({ mode: 'all', verifiers: [fixed('a', 1), fixed('b', 1)] }).verify(
      task,
      traj,
    );
    expect(pass).toMatchObject({ score: 1, passed: true, reason: 'all 2 passed' });
    const fail = await composite({ mode: 'all', verifiers: [fixed('a', 1), fixed('b', 0.4)] }).verify(
      task,
      traj,
    );
    expect(fail).toMatchObject({ score: 0.4, passed: false, reason: 'b: b says 0.4' });
    expect((fail.details as { parts: unknown[] }).parts).toHaveLength(2);
  });

  it('any: passes when one part passes; score is the highest', async () => {
    const v = await composite({ mode: 'any', verifiers: [fixed('a', 0.2), fixed('b', 1)] }).verify(
      task,
      traj,
    );
    expect(v).toMatchObject({ score: 1, passed: true, reason: 'b: b says 1' });
    const none = await composite({ mode: 'any', verifiers: [fixed('a', 0.2), fixed('b', 0.6)] }).verify(
      task,
      traj,
    );
    expect(none).toMatchObject({ score: 0.6, passed: false, reason: 'none of 2 passed' });
  });

  it('weighted: Σ wᵢ·sᵢ / Σ wᵢ against the threshold', async () => {
    // (3·1 + 1·0.2) / 4 = 0.8
    const parts = [
      { verifier: fixed('a', 1), weight: 3 },
      { verifier: fixed('b', 0.2), weight: 1 },
    ];
    const v = await composite({ mode: 'weighted', verifiers: parts }).verify(task, traj);
    expect(v.score).toBeCloseTo(0.8, 12);
    expect(v.passed).toBe(true);
    expect(
      (await composite({ mode: 'weighted', verifiers: parts, threshold: 0.9 }).verify(task, traj)).passed,
    ).toBe(false);
  });

  it('rejects bad configurations with the field named', () => {
    expect(() => composite({ mode: 'all', verifiers: [] })).toThrow(/options\.verifiers/);
    expect(() =>
      composite({ mode: 'weighted', verifiers: [{ verifier: fixed('a', 1), weight: 0 }] }),
    ).toThrow(/weights sum to 0/);
    expect(() =>
      composite({ mode: 'weighted', verifiers: [{ verifier: fixed('a', 1), weight: -1 }] }),
    ).toThrow(/weight/);
    expect(() => composite({ mode: 'most' as 'all', verifiers: [fixed('a', 1)] })).toThrow(/options\.mode/);
  });
});
