import type { Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { extractJson } from './extract-json.js';
import { jsonSchema } from './json-schema.js';

const task: Task = { id: 't', family: 'extract', split: 'test', prompt: 'Give JSON' };
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'extract',
  condition: 0,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});

const schema = {
  type: 'object',
  required: ['name', 'items'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    items: {
      type: 'array',
      items: { type: 'object', required: ['price'], properties: { price: { type: 'number', minimum: 0 } } },
    },
  },
};

describe('jsonSchema', () => {
  it('passes valid JSON, also inside a fenced block with prose around it', async () => {
    const v = jsonSchema({ schema });
    expect(await v.verify(task, traj('{"name":"a","items":[{"price":1}]}'))).toMatchObject({
      score: 1,
      passed: true,
    });
    const fenced = 'Here you go:\n```json\n{"name":"a","items":[]}\n```\nThanks';
    expect(await v.verify(task, traj(fenced))).toMatchObject({ score: 1, details: { from: 'fence' } });
    expect((await jsonSchema({ schema, parse: 'strict' }).verify(task, traj(fenced))).score).toBe(0);
  });

  it('lists every failing JSON path in the reason', async () => {
    const v = jsonSchema({ schema });
    const answer = JSON.stringify({ items: [{ price: 1 }, { price: -2 }, {}], email: 'nope', extra: 1 });
    const verdict = await v.verify(task, traj(answer));
    expect(verdict.score).toBe(0);
    for (const fragment of [
      '$.name is required',
      '$.items[1].price',
      '$.items[2].price is required',
      '$.email',
      '$.extra is not an allowed property',
    ]) {
      expect(verdict.reason).toContain(fragment);
    }
    expect((verdict.details as { issues: unknown[] }).issues).toHaveLength(5);
  });

  it('caps the listed paths and says how many more', async () => {
    const verdict = await jsonSchema({ schema, maxIssuesInReason: 1 }).verify(task, traj('{"extra":1}'));
    expect(verdict.reason).toMatch(/\(\+2 more\)$/);
  });

  it('scores 0 with a reason when the answer is not JSON', async () => {
    const verdict = await jsonSchema({ schema }).verify(task, traj('no json here'));
    expect(verdict).toMatchObject({ score: 0, passed: false });
    expect(verdict.reason).toMatch(/not JSON/);
  });

  it('rejects a schema ajv cannot compile', () => {
    expect(() => jsonSchema({ schema: { type: 'no-such-type' } })).toThrow(/options\.schema/);
  });
});

describe('extractJson', () => {
  it('falls back to the span between the first bracket and the last', () => {
    expect(extractJson('The answer is [1, 2] as asked.', 'lenient')).toEqual({
      ok: true,
      value: [1, 2],
      from: 'span',
    });
    expect(extractJson('The answer is [1, 2] as asked.', 'strict').ok).toBe(false);
  });
});
