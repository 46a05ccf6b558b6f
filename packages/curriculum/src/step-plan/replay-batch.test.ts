import { InvalidArgumentError, type Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { replayBatch, replaySkillcUpdates } from './replay-batch.js';

const run = (id: string, error?: string): Trajectory => ({
  id,
  taskId: 't',
  family: 'f',
  condition: 1,
  steps: [{ index: 0, observation: 'o', action: 'a', reward: 1, done: true }],
  reward: 1,
  verdict: { score: 1, passed: true },
  ...(error ? { error: { code: 'SKILLRL_MODEL_CALL', message: error } } : {}),
});

describe('replayBatch', () => {
  const stored = new Map([
    ['a', run('a')],
    ['b', run('b', 'model call failed')],
    ['c', run('c')],
  ]);
  const trajectory = (id: string) => stored.get(id) as Trajectory;

  it('rebuilds the stored update: errored rollouts and rows without an advantage left out, in row order', () => {
    const batch = replayBatch(
      [
        { trajectoryId: 'c', advantage: -0.5 },
        { trajectoryId: 'b', advantage: 0.25 },
        { trajectoryId: 'a', advantage: null },
        { trajectoryId: 'a', advantage: 0.5 },
      ],
      3,
      trajectory,
    );
    expect(batch?.trajectories.map((t) => t.id)).toEqual(['c', 'a']);
    expect(batch?.advantages).toEqual([-0.5, 0.5]);
    expect(batch).not.toHaveProperty('stepAdvantages');
  });

  it('carries step-level advantages when a row has them (GiGPO), undefined for the rows without', () => {
    const batch = replayBatch(
      [
        { trajectoryId: 'a', advantage: 1, stepAdvantages: [0.5, 1.5] },
        { trajectoryId: 'c', advantage: 2 },
      ],
      1,
      trajectory,
    );
    expect(batch?.stepAdvantages).toEqual([[0.5, 1.5], undefined]);
  });

  it('a step that trained nothing made no update: undefined', () => {
    expect(replayBatch([], 1, trajectory)).toBeUndefined();
    expect(replayBatch([{ trajectoryId: 'b', advantage: 1 }], 1, trajectory)).toBeUndefined();
  });

  it('a damaged row names its step, row and field', () => {
    expect(() => replayBatch([{ advantage: 1 }], 2, trajectory)).toThrow(InvalidArgumentError);
    expect(() => replayBatch([{ trajectoryId: 'a', advantage: 'x' }], 2, trajectory)).toThrow(
      /advantages\.jsonl, step 2, rows\[0\]\.advantage is "x"/,
    );
    expect(() =>
      replayBatch([{ trajectoryId: 'a', advantage: 1, stepAdvantages: [Number.NaN] }], 4, trajectory),
    ).toThrow(/step 4, rows\[0\]\.stepAdvantages is not an array of finite numbers/);
  });
});

describe('replaySkillcUpdates', () => {
  const stored = new Map([
    ['a', run('a')],
    ['b', run('b', 'model call failed')],
  ]);
  const trajectory = (id: string) => stored.get(id) as Trajectory;

  it('replays each finished step in order, skipping a step that trained nothing', async () => {
    const records: Record<number, { rows: unknown[] }> = {
      1: { rows: [{ trajectoryId: 'a', advantage: 1 }] },
      2: { rows: [{ trajectoryId: 'b', advantage: 1 }] },
      3: { rows: [{ trajectoryId: 'a', advantage: -1 }] },
    };
    const seen: number[][] = [];
    const updates = await replaySkillcUpdates({
      completed: 3,
      stepRecord: (t) => records[t],
      trajectory,
      update: async (batch) => seen.push(Array.from(batch.advantages)),
    });
    expect(updates).toBe(2);
    expect(seen).toEqual([[1], [-1]]);
  });

  it('stops at a missing step record, naming the step, before updating past it', async () => {
    const seen: number[] = [];
    await expect(
      replaySkillcUpdates({
        completed: 2,
        stepRecord: (t) => (t === 1 ? { rows: [{ trajectoryId: 'a', advantage: 1 }] } : undefined),
        trajectory,
        update: async () => seen.push(1),
      }),
    ).rejects.toThrow(/advantages of step 2 are missing/);
    expect(seen).toEqual([1]);
  });
});
