import type { Task, Trajectory } from '@skillrl/core';
import { MissingFieldError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { exactMatch } from './exact-match.js';
import { normalizedMatch } from './normalized-match.js';

const task = (answer?: Task['answer']): Task => ({
  id: 't1',
  family: 'qa',
  split: 'test',
  prompt: 'Q?',
  ...(answer === undefined ? {} : { answer }),
});
const traj = (answer: string | undefined, actions: string[] = []): Trajectory => ({
  id: 'r1',
  taskId: 't1',
  family: 'qa',
  condition: 0,
  steps: actions.map((action, index) => ({
    index,
    observation: 'o',
    action,
    reward: 0,
    done: index === actions.length - 1,
  })),
  ...(answer === undefined ? {} : { answer }),
  reward: 0,
  verdict: { score: 0, passed: false },
});

describe('exactMatch', () => {
  it('scores 1 on an identical answer (ignoring surrounding whitespace) and 0 otherwise', async () => {
    const v = exactMatch();
    expect(await v.verify(task('Paris'), traj('  Paris\n'))).toMatchObject({ score: 1, passed: true });
    const miss = await v.verify(task('Paris'), traj('paris'));
    expect(miss).toMatchObject({ score: 0, passed: false });
    expect(miss.reason).toContain('"paris"');
  });

  it('accepts any of several references and numbers written as JSON', async () => {
    const v = exactMatch();
    expect((await v.verify(task(['NYC', 'New York']), traj('New York'))).score).toBe(1);
    expect((await v.verify(task(42), traj('42'))).score).toBe(1);
  });

  it('uses the last action when the trajectory has no answer', async () => {
    const v = exactMatch();
    expect((await v.verify(task('go north'), traj(undefined, ['look', 'go north']))).score).toBe(1);
    expect((await v.verify(task('go north'), traj(undefined, []))).score).toBe(0);
  });

  it('keeps whitespace when trim is false', async () => {
    expect((await exactMatch({ trim: false }).verify(task('a'), traj(' a'))).score).toBe(0);
  });

  it('throws a MissingFieldError naming task.answer on an unlabeled task', async () => {
    const error = await exactMatch()
      .verify(task(), traj('x'))
      .catch((e: unknown) => e);
    expect(MissingFieldError.isInstance(error)).toBe(true);
    expect((error as MissingFieldError).field).toBe('task.answer');
  });

  it('rejects a threshold outside [0, 1]', () => {
    expect(() => exactMatch({ threshold: 2 })).toThrow(/threshold.*\[0, 1\]/);
  });
});

describe('normalizedMatch', () => {
  it('ignores case, punctuation, articles and extra whitespace (SQuAD)', async () => {
    const v = normalizedMatch();
    const verdict = await v.verify(task('Eiffel Tower'), traj('The  eiffel tower!'));
    expect(verdict).toMatchObject({ score: 1, passed: true, details: { normalized: 'eiffel tower' } });
    expect((await v.verify(task('Eiffel Tower'), traj('Tower Eiffel'))).score).toBe(0);
  });

  it('takes a custom normaliser', async () => {
    const digitsOnly = normalizedMatch({ normalize: (s) => s.replace(/\D/g, '') });
    expect((await digitsOnly.verify(task('+1 (555) 010-9999'), traj('15550109999'))).score).toBe(1);
  });
});
