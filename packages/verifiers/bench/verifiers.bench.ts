import type { Task, Trajectory } from '@skillrl/core';
import { bench, describe } from 'vitest';
import { codeTests, exactMatch, jsonSchema, normalizedMatch, numeric, tokenF1 } from '../src/index.js';

const task: Task = {
  id: 't',
  family: 'qa',
  split: 'test',
  prompt: 'Q',
  answer: ['the Eiffel Tower in Paris', 'Eiffel Tower'],
};
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'qa',
  condition: 0,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});
const answer = traj('I believe it is the eiffel tower, in Paris, France.');

describe('answer matching (one verify call)', () => {
  const exact = exactMatch();
  const normalized = normalizedMatch();
  const f1 = tokenF1();
  const num = numeric();
  const numTask: Task = { ...task, answer: '1,234.5' };
  const numAnswer = traj('So the total is $1,234.50 after tax.');
  const schema = jsonSchema({
    schema: { type: 'object', required: ['a'], properties: { a: { type: 'number' } } },
  });
  const json = traj('```json\n{"a": 1, "b": [1, 2, 3]}\n```');
  bench('exactMatch', async () => void (await exact.verify(task, answer)));
  bench('normalizedMatch', async () => void (await normalized.verify(task, answer)));
  bench('tokenF1', async () => void (await f1.verify(task, answer)));
  bench('numeric', async () => void (await num.verify(numTask, numAnswer)));
  bench('jsonSchema', async () => void (await schema.verify(task, json)));
});

describe('codeTests (one sandboxed run, 3 tests)', () => {
  const tests = [
    'assert.equal(add(2, 3), 5)',
    'assert.equal(add(-1, 1), 0)',
    'assert.equal(add(0.5, 0.25), 0.75)',
  ];
  const solution = traj('function add(a, b) { return a + b; }');
  const auto = codeTests({ tests, concurrency: 1 });
  const shim = codeTests({ tests, concurrency: 1, network: 'shim' });
  bench('network: auto (namespace here)', async () => void (await auto.verify(task, solution)), {
    iterations: 10,
    time: 0,
  });
  bench('network: shim', async () => void (await shim.verify(task, solution)), { iterations: 10, time: 0 });
});
