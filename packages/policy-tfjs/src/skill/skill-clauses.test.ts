import type { Task } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { similarity } from '../model/encode-decision.js';
import { goalBindings } from './goal-bindings.js';
import { skillClauses, skillSteps } from './skill-clauses.js';

const CLEAN = `### TASK: clean ###
1. Find the object and take it.
2. Go to the sinkbasin and "clean <object> with sinkbasin N" while holding it; you do not put it in the sink.
3. Go to the target receptacle, open it if it is closed, and put the clean object in it.
`;

describe('skillClauses', () => {
  it('splits numbered steps into clauses and binds the goal words', () => {
    expect(skillSteps(CLEAN)).toHaveLength(3);
    const clauses = skillClauses(CLEAN, { object: 'apple', receptacle: 'fridge' });
    expect(clauses.map((c) => `${c.step}${c.negated ? '!' : ''}:${c.words.join(' ')}`)).toEqual([
      '0:find apple',
      '0:take apple',
      '1:sinkbasin',
      '1:clean apple sinkbasin',
      '1:holding apple',
      '1!:put apple sink',
      '2:fridge',
      '2:open fridge closed',
      '2:put clean apple fridge',
    ]);
  });
});

describe('goalBindings', () => {
  it('reads metadata first, then the prompt', () => {
    const base: Task = {
      id: 't',
      family: 'f',
      split: 'train',
      prompt: 'Your task is to: put a hot egg in countertop.',
    };
    expect(goalBindings(base)).toEqual({ object: 'egg', receptacle: 'countertop' });
    expect(goalBindings({ ...base, metadata: { objectKind: 'Apple', receptacleKind: 'fridge' } })).toEqual({
      object: 'apple',
      receptacle: 'fridge',
    });
  });
});

describe('similarity', () => {
  it('is the product of action-side and clause-side overlap', () => {
    // take apple countertop vs take apple: shared 2 → (2/3)·(2/2) = 2/3.
    expect(similarity(new Set(['take', 'apple', 'countertop']), ['take', 'apple'])).toBeCloseTo(2 / 3, 12);
    // take egg countertop vs take apple: shared 1 → (1/3)·(1/2) = 1/6.
    expect(similarity(new Set(['take', 'egg', 'countertop']), ['take', 'apple'])).toBeCloseTo(1 / 6, 12);
    // open cabinet vs open receptacle closed: "receptacle" takes cabinet → (2/2)·(2/3).
    expect(similarity(new Set(['open', 'cabinet']), ['open', 'receptacle', 'closed'])).toBeCloseTo(2 / 3, 12);
    expect(similarity(new Set(['inventory']), ['take', 'apple'])).toBe(0);
  });
});
