import type { Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { contains } from './contains.js';

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

describe('contains', () => {
  it('all mode scores the fraction found and passes only with every needle', async () => {
    const v = contains({ needles: ['apple', 'pear', 'plum'] });
    const verdict = await v.verify(task(), traj('An APPLE and a pear'));
    expect(verdict.score).toBeCloseTo(2 / 3, 12);
    expect(verdict.passed).toBe(false);
    expect(verdict.reason).toMatch(/lacks "plum"/);
  });

  it('any mode scores 1 on one needle; case and whitespace options apply', async () => {
    expect(
      (await contains({ needles: ['x', 'pear'], mode: 'any' }).verify(task(), traj('a pear'))).score,
    ).toBe(1);
    expect(
      (await contains({ needles: ['Pear'], caseSensitive: true }).verify(task(), traj('a pear'))).score,
    ).toBe(0);
    expect((await contains({ needles: ['new york'] }).verify(task(), traj('New\n  York'))).score).toBe(1);
    expect(
      (
        await contains({ needles: ['new york'], collapseWhitespace: false }).verify(
          task(),
          traj('New\n  York'),
        )
      ).score,
    ).toBe(0);
  });

  it('defaults to the task answer as needles', async () => {
    expect((await contains().verify(task(['red', 'blue']), traj('red and blue'))).passed).toBe(true);
  });
});
