import { createRng, type Task, type Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  consistentAssignments,
  knightsFamily,
  parseKnightsAnswer,
  type Statement,
} from './knights-family.js';

function reply(action: string): Trajectory {
  return {
    id: 't',
    taskId: 'k',
    family: 'knights',
    condition: 0,
    steps: [{ index: 0, observation: '', action, reward: 0, done: true }],
    reward: 0,
    verdict: { score: 0, passed: false },
  };
}

describe('knights and knaves', () => {
  it('brute force finds the unique solution of a hand-made puzzle', () => {
    // A says "B is a knave"; B says "A and I are the same kind".
    // A knight → B knave → B's claim (same kind) false: A knight, B knave differ ✓.
    // A knave → B knight → B's claim true needs same kind, but they differ ✗. Unique: [knight, knave].
    const statements: Statement[][] = [
      [{ kind: 'is', who: 1, knight: false }],
      [{ kind: 'same', a: 0, b: 1 }],
    ];
    expect(consistentAssignments(statements)).toEqual([[true, false]]);
  });

  it('finds both solutions of an ambiguous puzzle', () => {
    // A says "I am a knight": true for a knight, false for a knave — both fit.
    expect(consistentAssignments([[{ kind: 'is', who: 0, knight: true }]])).toEqual([[false], [true]]);
  });

  it('generates puzzles with exactly one solution, which is the stored answer', () => {
    for (const profile of ['seen', 'unseen'] as const) {
      for (let i = 0; i < 30; i++) {
        const instance = knightsFamily.generate(createRng(`k${i}`), profile);
        const n = (instance.metadata.names as string[]).length;
        expect(profile === 'seen' ? n >= 2 && n <= 3 : n >= 4 && n <= 5).toBe(true);
        const task: Task = {
          id: 'k',
          family: 'knights',
          split: 'x',
          prompt: instance.prompt,
          answer: instance.answer,
          metadata: instance.metadata,
        };
        expect(knightsFamily.verifier.verify(task, reply(`FINAL ANSWER: ${instance.answer}`))).toMatchObject({
          score: 1,
        });
      }
    }
  });

  const names = ['Alice', 'Bob', 'Carol'];
  it.each([
    ['Alice: knight, Bob: knave, Carol: knight', [true, false, true]],
    ['carol is a KNIGHT. bob is a knave; alice is a knight', [true, false, true]],
    ['Alice and Carol are knights, and Bob is a knave.', [true, false, true]],
    ['Knights: Alice, Carol. Knaves: Bob', [true, false, true]],
    ['Alice is a knight, Bob is not a knight, Carol is a knight', [true, false, true]],
  ])('reads %j', (text, expected) => {
    const read = parseKnightsAnswer(text, names);
    expect(names.map((n) => read.get(n.toLowerCase()))).toEqual(expected);
  });

  it('marks a name given both roles as unclear, and leaves out unnamed ones', () => {
    const read = parseKnightsAnswer('Alice is a knight. Alice is a knave. Bob is a knave.', names);
    expect(read.get('alice')).toBeNull();
    expect(read.get('bob')).toBe(false);
    expect(read.has('carol')).toBe(false);
  });

  it('scores 0 and names the wrong and missing islanders', () => {
    const task: Task = {
      id: 'k',
      family: 'knights',
      split: 'x',
      prompt: '',
      answer: 'Alice: knight, Bob: knave, Carol: knight',
      metadata: { names, knights: [true, false, true] },
    };
    const verdict = knightsFamily.verifier.verify(task, reply('Alice: knave, Bob: knave'));
    expect(verdict).toMatchObject({
      score: 0,
      passed: false,
      details: { wrong: ['Alice'], missing: ['Carol'] },
    });
  });
});
