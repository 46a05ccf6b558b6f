import type { Trajectory } from '@skillrl/core';
import type { HealthOptions } from '@skillrl/orchestrator';
import { describe, expect, it } from 'vitest';
import { EvaluationHealth } from './evaluation-health.js';
import { EvaluationHealthError } from './evaluation-health-error.js';

const endpoint = { endpoint: 'http://127.0.0.1:1/v1', field: 'agent.options.baseURL' };

const episode = (i: number, failed: boolean): Trajectory =>
  ({
    id: `e${i}`,
    taskId: `t${i}`,
    family: 'f',
    condition: (i % 2) as 0 | 1,
    steps: [],
    reward: 0,
    verdict: { score: 0, passed: false },
    ...(failed ? { error: { code: 'model', message: 'Connection error.' } } : {}),
  }) as Trajectory;

/** Feeds the episodes in order; the error it stopped with, and after how many. */
function judge(health: HealthOptions | undefined, failed: boolean[]) {
  const h = new EvaluationHealth(health, endpoint, 'cfg.yaml', 'skillrl eval cfg.yaml');
  h.start();
  const runs: Trajectory[] = [];
  for (const [i, f] of failed.entries()) {
    runs.push(episode(i, f));
    const tripped = h.record(runs[i] as Trajectory);
    if (tripped) return { error: tripped, after: runs.length };
  }
  return { error: h.finish(runs), after: runs.length };
}

describe('EvaluationHealth: the run’s error budget over an evaluation', () => {
  it('no error, or errors under the budget: nothing', () => {
    expect(judge(undefined, [false, false, false, false]).error).toBeUndefined();
    expect(judge(undefined, [true, false, true, false]).error).toBeUndefined();
  });

  it('every episode failed: the first-batch rule, with the endpoint and the command to run again', () => {
    const { error } = judge(undefined, [true, true, true]);
    expect(EvaluationHealthError.isInstance(error)).toBe(true);
    expect(error?.code).toBe('SKILLRL_EVAL_HEALTH');
    expect(error?.details).toMatchObject({ rule: 'first-batch', errors: 3, samples: 3, target: 'cfg.yaml' });
    expect(error?.message).toBe(
      'the evaluation stopped: all 3 episodes ended in an error (health.firstBatch: fail-if-all-error). Most common (3×): model: Connection error. Endpoint: http://127.0.0.1:1/v1 (agent.options.baseURL). No success rate is reported (an episode that ended in an error is not a result) and nothing was written; fix the cause, then evaluate again with `skillrl eval cfg.yaml`.',
    );
  });

  it('the share rule stops early, once minSamples are in', () => {
    const { error, after } = judge({ minSamples: 4 }, Array(20).fill(true));
    expect(after).toBe(4);
    expect(error?.details).toMatchObject({ rule: 'share', errors: 4, samples: 4, threshold: 0.5 });
  });

  it('the evaluation as one unit: more than maxErrorShare of all its episodes', () => {
    const { error } = judge({ maxErrorShare: 0.25 }, [true, false, true, false]);
    expect(error?.details).toMatchObject({
      rule: 'unit',
      unit: 'eval',
      errors: 2,
      samples: 4,
      threshold: 0.25,
    });
    expect(error?.message).toContain(
      "2 of the evaluation's 4 episodes ended in an error (50% > health.maxErrorShare 25%)",
    );
  });

  it('every episode in error is no result even when health allows any share and no first-batch rule', () => {
    const { error } = judge({ maxErrorShare: 1, firstBatch: 'off' }, [true, true]);
    expect(error?.details).toMatchObject({ rule: 'all-failed', errors: 2, samples: 2 });
    expect(error?.details.threshold).toBeUndefined();
  });

  it('an error raised by the environment is not blamed on the endpoint', () => {
    const h = new EvaluationHealth(undefined, endpoint, 'cfg.yaml', 'skillrl eval cfg.yaml');
    h.start();
    const runs = [0, 1].map((i) => ({
      ...episode(i, false),
      error: { code: 'environment', message: 'boom' },
    }));
    for (const t of runs) h.record(t as Trajectory);
    expect(h.finish(runs as Trajectory[])?.message).toContain(
      'Raised by the environment, not by a model call (the task model: http://127.0.0.1:1/v1)',
    );
  });
});
