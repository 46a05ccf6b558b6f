import { createRng, type Task, type Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { arithmeticFamily } from './arithmetic-family.js';

function reply(answer: string): Trajectory {
  return {
    id: 't',
    taskId: 'a',
    family: 'arithmetic',
    condition: 0,
    steps: [],
    answer,
    reward: 0,
    verdict: { score: 0, passed: false },
  };
}

/** Replays the recorded operations ("3*4 +5 /3") to check the stored answer independently of the generator. */
function replay(operations: string): number {
  const [start, ...ops] = operations.split(' ');
  let value = (start as string).split('*').reduce((a, b) => a * Number(b), 1);
  for (const op of ops) {
    const k = Number(op.slice(1));
    if (op[0] === '+') value += k;
    else if (op[0] === '-') value -= k;
    else if (op[0] === '*') value *= k;
    else value /= k;
    expect(Number.isInteger(value) && value >= 0).toBe(true);
  }
  return value;
}

describe('arithmetic word problems', () => {
  it('have whole-number answers that the recorded steps reproduce, in disjoint step ranges', () => {
    for (const profile of ['seen', 'unseen'] as const) {
      for (let i = 0; i < 200; i++) {
        const instance = arithmeticFamily.generate(createRng(`a${i}`), profile);
        const steps = instance.metadata.steps as number;
        expect(profile === 'seen' ? steps >= 2 && steps <= 3 : steps >= 4 && steps <= 5).toBe(true);
        expect(replay(instance.metadata.operations as string)).toBe(instance.answer);
      }
    }
  });

  it('the verifier reads the last whole number of the FINAL ANSWER part', () => {
    const task: Task = { id: 'a', family: 'arithmetic', split: 'x', prompt: '', answer: 32 };
    expect(arithmeticFamily.verifier.verify(task, reply('12 + 20 = 32\nFINAL ANSWER: 32'))).toMatchObject({
      score: 1,
    });
    expect(arithmeticFamily.verifier.verify(task, reply('I get 32 apples.'))).toMatchObject({ score: 1 });
    expect(arithmeticFamily.verifier.verify(task, reply('FINAL ANSWER: 31'))).toMatchObject({
      score: 0,
      details: { given: 31 },
    });
    expect(arithmeticFamily.verifier.verify(task, reply('FINAL ANSWER: thirty-two'))).toMatchObject({
      score: 0,
      details: { given: null },
    });
  });
});
