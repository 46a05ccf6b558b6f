import type { RunConfig } from '@skillrl/orchestrator';
import { describe, expect, it } from 'vitest';
import { evaluationTasks } from './evaluation-tasks.js';

const config = (extra: Partial<RunConfig> = {}) =>
  ({
    method: 'internalize',
    seed: 10,
    adapter: 'household',
    agent: 'x',
    tasks: { split: 'train', limit: 4 },
    internalize: {
      validation: { split: 'valid_seen', limit: 2 },
      test: { split: 'valid_unseen', limit: 6, seed: 99 },
    },
    ...extra,
  }) as RunConfig;

describe('evaluationTasks: the tasks eval runs on, as the run loads them', () => {
  it("defaults to the config's tasks with their limit and the run seed", () => {
    expect(evaluationTasks(config())).toEqual({
      tasks: { split: 'train', limit: 4, seed: 10 },
      from: 'tasks',
    });
    expect(evaluationTasks(config({ tasks: { split: 'train', limit: 4, seed: 3 } })).tasks.seed).toBe(3);
  });

  it('another split gets the options the config gives it, each with the seed the run loads it with', () => {
    expect(evaluationTasks(config(), { split: 'valid_seen' })).toEqual({
      tasks: { split: 'valid_seen', limit: 2, seed: 11 },
      from: 'internalize.validation',
    });
    expect(evaluationTasks(config(), { split: 'valid_unseen' })).toEqual({
      tasks: { split: 'valid_unseen', limit: 6, seed: 99 },
      from: 'internalize.test',
    });
    const evolve = config({
      internalize: undefined,
      evolve: { heldOut: { split: 'valid_unseen' } },
    } as Partial<RunConfig>);
    expect(evaluationTasks(evolve, { split: 'valid_unseen' })).toEqual({
      tasks: { split: 'valid_unseen', seed: 13 },
      from: 'evolve.heldOut',
    });
  });

  it('a split named nowhere keeps tasks.limit (never every task of it); --limit replaces any limit', () => {
    expect(evaluationTasks(config(), { split: 'other' })).toEqual({
      tasks: { split: 'other', limit: 4, seed: 12 },
      from: 'tasks.limit',
    });
    expect(evaluationTasks(config(), { split: 'valid_seen', limit: 9 }).tasks).toEqual({
      split: 'valid_seen',
      limit: 9,
      seed: 11,
    });
    expect(evaluationTasks(config({ tasks: { split: 'train' } }), { split: 'other' }).tasks).toEqual({
      split: 'other',
      seed: 12,
    });
  });
});
