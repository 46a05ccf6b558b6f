import type { Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { predicate } from './predicate.js';

const task: Task = { id: 't', family: 'f', split: 'test', prompt: 'Q', answer: 'ok' };
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'f',
  condition: 0,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});

describe('predicate', () => {
  it('maps booleans, scores and scored objects to verdicts, and passes the task along', async () => {
    const bool = predicate({ fn: (answer, t) => answer === t.answer });
    expect(await bool.verify(task, traj('ok'))).toMatchObject({
      score: 1,
      passed: true,
      reason: 'predicate returned true',
    });
    expect((await bool.verify(task, traj('no'))).score).toBe(0);
    const scored = predicate({ fn: (answer) => answer.length / 10, threshold: 0.3 });
    expect(await scored.verify(task, traj('abcd'))).toMatchObject({ score: 0.4, passed: true });
    const rich = predicate({ fn: async () => ({ score: 0.25, reason: 'a quarter', details: { n: 1 } }) });
    expect(await rich.verify(task, traj(''))).toMatchObject({
      score: 0.25,
      passed: false,
      reason: 'a quarter',
      details: { n: 1 },
    });
  });

  it('scores 0 with the reason when the predicate throws, sync or async', async () => {
    const sync = predicate({
      fn: () => {
        throw new Error('boom');
      },
    });
    expect(await sync.verify(task, traj(''))).toMatchObject({
      score: 0,
      passed: false,
      reason: 'predicate failed: boom',
    });
    const async = predicate({ fn: async () => Promise.reject(new Error('later')) });
    expect((await async.verify(task, traj(''))).reason).toBe('predicate failed: later');
  });

  it('scores 0 on a result outside [0, 1] and on a timeout', async () => {
    expect((await predicate({ fn: () => 1.5 }).verify(task, traj(''))).reason).toMatch(
      /returned 1\.5, expected/,
    );
    const slow = predicate({ fn: () => new Promise<boolean>(() => {}), timeoutMs: 20 });
    expect((await slow.verify(task, traj(''))).reason).toBe('predicate failed: timed out after 20 ms');
  });

  it('is named after the function unless a name is given', () => {
    function isPalindrome(answer: string) {
      return answer === [...answer].reverse().join('');
    }
    expect(predicate({ fn: isPalindrome }).name).toBe('isPalindrome');
    expect(predicate({ fn: isPalindrome, name: 'pal' }).name).toBe('pal');
  });
});
