import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task, Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import type { JsonlProblem } from '../jsonl/jsonl-problem.js';
import { createGaiaAdapter } from './create-gaia-adapter.js';
import { GAIA_INSTRUCTIONS } from './gaia-prompt.js';

const VALIDATION = fileURLToPath(
  new URL('../../test-fixtures/gaia/2023/validation/metadata.jsonl', import.meta.url),
);
const TEST = fileURLToPath(new URL('../../test-fixtures/gaia/2023/test/metadata.jsonl', import.meta.url));

function reply(answer: string): Trajectory {
  return {
    id: 't',
    taskId: 'g',
    family: 'gaia-level-1',
    condition: 0,
    steps: [],
    answer,
    reward: 0,
    verdict: { score: 0, passed: false },
  };
}

describe('createGaiaAdapter', () => {
  const problems: JsonlProblem[] = [];
  const gaia = createGaiaAdapter({
    path: { validation: VALIDATION, test: TEST },
    onProblems: (p) => problems.push(...p),
  });

  it('reads metadata.jsonl rows, Level as number or string', async () => {
    expect(gaia.families).toEqual(['gaia-level-1', 'gaia-level-2', 'gaia-level-3']);
    expect(gaia.splits).toEqual(['validation', 'test']);
    const tasks = await gaia.load({ split: 'validation' });
    expect(tasks.map((t) => [t.family, t.answer])).toEqual([
      ['gaia-level-1', '3'],
      ['gaia-level-2', '89706.00'],
      ['gaia-level-3', 'Braintree, Honolulu'],
      ['gaia-level-1', 'nothing'],
    ]);
    const first = tasks[0] as Task;
    expect(first.id).toBe('c61d22de-5f6c-4958-a7f6-5e9707bd3466');
    expect(first.prompt.startsWith(`${GAIA_INSTRUCTIONS}\n\nHow many studio albums`)).toBe(true);
    expect(first.metadata?.annotatorMetadata).toMatchObject({ 'Number of steps': '2' });
  });

  it('resolves attachments beside the file and reports a missing one', async () => {
    const [, sales, , missing] = await gaia.load({ split: 'validation' });
    const path = `${dirname(VALIDATION)}/7bd855d8-463d-4ed5-93ca-5fe35145f733.csv`;
    expect(sales?.metadata?.attachment).toBe(path);
    expect(sales?.prompt).toContain(`Attached file: ${path}`);
    expect(missing?.metadata?.attachmentMissing).toBe(true);
    expect(problems).toEqual([
      {
        file: VALIDATION,
        line: 4,
        field: 'file_name',
        severity: 'warning',
        message: expect.stringContaining('attachment missing-attachment.png not found beside the file'),
      },
    ]);
  });

  it("treats the test split's ? answers as unlabeled, and refuses to score them", async () => {
    const tasks = await gaia.load({ split: 'test' });
    expect(tasks.map((t) => t.answer)).toEqual([undefined, undefined]);
    expect(tasks[0]?.metadata?.labeled).toBe(false);
    expect(tasks[0]?.metadata?.attachment).toBe(`${dirname(TEST)}/a0c07678-e491-4bbc-8f0b-07405144218f.txt`);
    const verdict = await gaia
      .verifier(tasks[0] as Task)
      .verify(tasks[0] as Task, reply('FINAL ANSWER: Okafor'));
    expect(verdict).toMatchObject({ score: 0, passed: false, details: { unlabeled: true } });
    expect(verdict.reason).toContain('cannot be scored');
  });

  it('scores validation answers with the official rules on the FINAL ANSWER part', async () => {
    const [albums, sales, cities] = (await gaia.load({ split: 'validation' })) as Task[];
    const v = gaia.verifier(albums as Task);
    expect(await v.verify(albums as Task, reply('Thinking...\nFINAL ANSWER: 3'))).toMatchObject({
      score: 1,
      details: { rule: 'number' },
    });
    expect(await v.verify(sales as Task, reply('FINAL ANSWER: $89,706.00'))).toMatchObject({ score: 1 });
    expect(await v.verify(cities as Task, reply('FINAL ANSWER: braintree; honolulu'))).toMatchObject({
      score: 1,
      details: { rule: 'list' },
    });
    expect(await v.verify(cities as Task, reply('FINAL ANSWER: Honolulu, Braintree'))).toMatchObject({
      score: 0,
      details: { elements: [false, false] },
    });
  });

  it('names its split after the folder of a single path', () => {
    expect(createGaiaAdapter({ path: TEST }).splits).toEqual(['test']);
    expect(createGaiaAdapter({ path: VALIDATION, onProblems: () => {} }).splits).toEqual(['validation']);
  });

  it('reports a bad Level and leaves the row out', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/gaia-`);
    writeFileSync(
      `${dir}/metadata.jsonl`,
      '{"task_id": "a", "Question": "q", "Level": "4", "Final answer": "1", "file_name": ""}\n{"task_id": "b", "Level": 1}\n',
    );
    const found: JsonlProblem[] = [];
    const adapter = createGaiaAdapter({ path: `${dir}/metadata.jsonl`, onProblems: (p) => found.push(...p) });
    expect(adapter.tasks).toEqual([]);
    expect(found.map((p) => [p.line, p.field, p.message])).toEqual([
      [1, 'Level', 'expected 1, 2 or 3, got "4"'],
      [2, 'Question', 'missing'],
    ]);
  });

  it('exposes read_file by default, with tool calls before the one answering step', async () => {
    const [task] = await gaia.load({ split: 'validation', limit: 1 });
    expect(gaia.tools?.map((t) => t.name)).toEqual(['read_file']);
    const env = await gaia.createEnvironment(task as Task);
    expect(env.maxSteps).toBe(11);
    expect(await env.reset()).toBe((task as Task).prompt);
    const none = createGaiaAdapter({ path: VALIDATION, tools: false, onProblems: () => {} });
    expect(none.tools).toBeUndefined();
    expect((await none.createEnvironment(task as Task)).maxSteps).toBe(1);
    const web = createGaiaAdapter({
      path: VALIDATION,
      tools: {
        files: false,
        web: { backend: 'page-cache', path: '../../../gaia-tools/pages.jsonl' },
        maxCalls: 3,
      },
      onProblems: () => {},
    });
    expect(web.tools?.map((t) => t.name)).toEqual(['web_search', 'fetch_page']);
    expect((await web.createEnvironment(task as Task)).maxSteps).toBe(4);
    expect(() => createGaiaAdapter({ path: VALIDATION, tools: { maxCalls: -1 } })).toThrow(/tools.maxCalls/);
    expect(() =>
      createGaiaAdapter({
        path: VALIDATION,
        tools: { web: { backend: 'page-cache', path: 'nowhere.jsonl' } },
      }),
    ).toThrow(/cannot read the page cache/);
  });

  it('reports the page cache problems with the rows', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/gaia-`);
    writeFileSync(
      `${dir}/metadata.jsonl`,
      '{"task_id": "a", "Question": "q", "Level": 1, "Final answer": "1"}\n',
    );
    writeFileSync(`${dir}/pages.jsonl`, '{"url": "https://a.org/", "text": "x"}\n{"url": "nope"}\n');
    const found: JsonlProblem[] = [];
    createGaiaAdapter({
      path: `${dir}/metadata.jsonl`,
      tools: { web: { backend: 'page-cache', path: 'pages.jsonl' } },
      onProblems: (p) => found.push(...p),
    });
    expect(found.map((p) => [p.file, p.line, p.message])).toEqual([
      [`${dir}/pages.jsonl`, 2, 'url: expected an absolute http(s) URL, got "nope"'],
    ]);
  });
});
