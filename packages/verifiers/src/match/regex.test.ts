import type { Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { regex } from './regex.js';

const task = (answer?: Task['answer']): Task => ({
  id: 't',
  family: 'f',
  split: 'test',
  prompt: 'Q',
  ...(answer === undefined ? {} : { answer }),
});
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

describe('regex', () => {
  it('searches by default and reports the match', async () => {
    const v = regex({ pattern: /answer:\s*(?<value>\d+)/i });
    const verdict = await v.verify(task(), traj('Final ANSWER: 42'));
    expect(verdict).toMatchObject({ score: 1, details: { groups: { value: '42' } } });
    expect((await v.verify(task(), traj('no'))).score).toBe(0);
  });

  it('anchors in full mode and builds per-task patterns', async () => {
    expect((await regex({ pattern: '\\d+', mode: 'full' }).verify(task(), traj('12a'))).score).toBe(0);
    expect((await regex({ pattern: '\\d+', mode: 'full' }).verify(task(), traj(' 12 '))).score).toBe(1);
    const perTask = regex({ pattern: (t) => `^${String(t.answer)}$`, flags: 'i' });
    expect((await perTask.verify(task('yes'), traj('YES'))).score).toBe(1);
  });

  it('rejects an invalid pattern at construction', () => {
    expect(() => regex({ pattern: '(' })).toThrow(/not a valid regular expression/);
  });
});
