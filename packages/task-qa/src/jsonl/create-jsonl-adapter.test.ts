import { fileURLToPath } from 'node:url';
import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createJsonlAdapter } from './create-jsonl-adapter.js';
import { formatProblem, type JsonlProblem } from './jsonl-problem.js';

const FILE = fileURLToPath(new URL('../../test-fixtures/jsonl/custom.jsonl', import.meta.url));

function open(strict = false) {
  const reported: JsonlProblem[][] = [];
  const adapter = createJsonlAdapter({
    path: FILE,
    name: 'custom',
    fields: {
      id: 'qid',
      question: 'prompt.text',
      answer: 'gold',
      family: 'topic',
      split: 'part',
      metadata: { topic: 'topic' },
    },
    strict,
    onProblems: (problems) => reported.push([...problems]),
  });
  return { adapter, reported };
}

describe('createJsonlAdapter', () => {
  it('reads configured (nested) field names into tasks', async () => {
    const { adapter } = open();
    expect(adapter.families).toEqual(['geography', 'biology']);
    expect(adapter.splits).toEqual(['test', 'train']);
    const train = await adapter.load({ split: 'train' });
    expect(train).toEqual([
      {
        id: 'q1',
        family: 'geography',
        split: 'train',
        prompt: 'What is the capital of France?',
        answer: 'Paris',
        metadata: { line: 1, topic: 'geography' },
      },
      {
        id: 'q2',
        family: 'biology',
        split: 'train',
        prompt: 'How many legs does a spider have?',
        answer: 8,
        metadata: { line: 2, topic: 'biology' },
      },
    ]);
    const test = await adapter.load({ split: 'test' });
    expect(test.map((t) => t.id)).toEqual(['q3', 'q6']);
    expect(test[1]?.answer).toBeUndefined();
  });

  it('reports every bad line with file, line and field, once, and keeps the rest', () => {
    const { adapter, reported } = open();
    expect(reported).toHaveLength(1);
    expect(reported[0]).toEqual(adapter.problems);
    expect(adapter.problems.map((p) => [p.line, p.field ?? null, p.severity])).toEqual([
      [5, null, 'error'],
      [6, null, 'error'],
      [7, 'prompt.text', 'error'],
      [8, 'id', 'error'],
      [10, 'part', 'error'],
    ]);
    expect(formatProblem(adapter.problems[1] as JsonlProblem)).toBe(
      `${FILE}:6: expected a JSON object, got an array (error)`,
    );
    expect(adapter.problems[3]?.message).toContain(`first at ${FILE}:1`);
    expect(adapter.problems[0]?.message).toMatch(/^not valid JSON/);
  });

  it('throws one ValidationError listing every problem in strict mode', () => {
    let error: unknown;
    try {
      open(true);
    } catch (e) {
      error = e;
    }
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([
      `${FILE}:5`,
      `${FILE}:6`,
      `${FILE}:7 prompt.text`,
      `${FILE}:8 id`,
      `${FILE}:10 part`,
    ]);
  });

  it('uses file:line ids, one split and the default family without those fields', async () => {
    const adapter = createJsonlAdapter({
      path: FILE,
      fields: { question: 'prompt.text', answer: 'gold' },
      onProblems: () => {},
    });
    expect(adapter.splits).toEqual(['test']);
    expect(adapter.families).toEqual(['qa']);
    const tasks = await adapter.load({ split: 'test' });
    expect(tasks[0]?.id).toBe('custom.jsonl:1');
    // Lines 1, 2, 4, 8, 9, 10: without an id field the duplicate q1 is just another row.
    expect(tasks).toHaveLength(6);
  });

  it('samples limit tasks by seed, reproducibly', async () => {
    const adapter = createJsonlAdapter({
      path: FILE,
      fields: { question: 'prompt.text', answer: 'gold' },
      onProblems: () => {},
    });
    const a = await adapter.load({ split: 'test', limit: 3, seed: 1 });
    expect(await adapter.load({ split: 'test', limit: 3, seed: 1 })).toEqual(a);
    expect((await adapter.load({ split: 'test', limit: 3 })).map((t) => t.id)).toEqual([
      'custom.jsonl:1',
      'custom.jsonl:2',
      'custom.jsonl:4',
    ]);
    expect(() => adapter.load({ split: 'train' })).toThrow(/no split "train"; expected one of test/);
  });

  it('scores with the GAIA rules by default', async () => {
    const adapter = createJsonlAdapter({
      path: FILE,
      fields: { question: 'prompt.text', answer: 'gold' },
      onProblems: () => {},
    });
    const [paris, spider] = await adapter.load({ split: 'test', limit: 2 });
    const env = await adapter.createEnvironment(paris as never);
    await env.reset();
    expect((await env.step('FINAL ANSWER: paris')).reward).toBe(1);
    const env2 = await adapter.createEnvironment(spider as never);
    await env2.reset();
    expect((await env2.step('8.0')).reward).toBe(1);
  });

  it('names a missing file in a typed error', () => {
    expect(() => createJsonlAdapter({ path: '/nonexistent/x.jsonl' })).toThrow(
      /jsonl files\.test.*\/nonexistent\/x\.jsonl \(ENOENT\)/,
    );
  });
});
