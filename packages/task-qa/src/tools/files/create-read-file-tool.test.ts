import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadFileTool } from './create-read-file-tool.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../../test-fixtures/attachments/${name}`, import.meta.url));

let root: string;
let folder: string;
const task = (attachment?: string): Task => ({
  id: 't1',
  family: 'gaia-level-1',
  split: 'validation',
  prompt: 'Q',
  metadata: attachment ? { attachment } : {},
});

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'read-file-'));
  folder = join(root, 'validation');
  mkdirSync(folder);
  writeFileSync(join(folder, 'metadata.jsonl'), '{"task_id":"t1","Final answer":"secret answer"}\n');
  writeFileSync(join(folder, 't1.csv'), 'a,b\n1,2\n');
  writeFileSync(join(folder, 't2.txt'), 'another task');
  writeFileSync(join(root, 'outside.txt'), 'outside the folder');
  symlinkSync(join(root, 'outside.txt'), join(folder, 'escape.txt'));
  copyFileSync(fixture('pixel.png'), join(folder, 't3.png'));
  writeFileSync(join(folder, 'long.txt'), 'x'.repeat(25));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('read_file', () => {
  const tool = createReadFileTool();
  const run = (args: Record<string, unknown>, t: Task) => Promise.resolve(tool.execute?.(args, { task: t }));

  it('reads the task attachment by the path in the prompt, by its bare name, or with no path', async () => {
    const attachment = join(folder, 't1.csv');
    const expected = 'File: t1.csv (CSV, 2 lines, 8 characters)\n\na,b\n1,2\n';
    expect(await run({ path: attachment }, task(attachment))).toBe(expected);
    expect(await run({ path: 't1.csv' }, task(attachment))).toBe(expected);
    expect(await run({}, task(attachment))).toBe(expected);
    expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
  });

  it('refuses traversal, symlinks out, absolute paths elsewhere, and other files of the folder', async () => {
    const t = task(join(folder, 't1.csv'));
    expect(await run({ path: '../outside.txt' }, t)).toBe(
      'Error: "../outside.txt" is outside the folder of the attached file; the only file you can read is t1.csv.',
    );
    expect(await run({ path: join(root, 'outside.txt') }, t)).toMatch(/is outside the folder/);
    expect(await run({ path: '/etc/passwd' }, t)).toMatch(/is outside the folder/);
    expect(await run({ path: 'escape.txt' }, t)).toBe(
      'Error: "escape.txt" leads outside the folder of the attached file; the only file you can read is t1.csv.',
    );
    // GAIA keeps every attachment beside metadata.jsonl, which holds the answers.
    const leak = await run({ path: 'metadata.jsonl' }, t);
    expect(leak).toBe(
      `Error: "metadata.jsonl" is not this question's attached file; the only file you can read is t1.csv.`,
    );
    expect(await run({ path: 't2.txt' }, t)).toMatch(/is not this question's attached file/);
    expect(await run({ path: 'nope.csv' }, t)).toBe(
      'Error: no file "nope.csv"; the attached file is t1.csv.',
    );
  });

  it('says when there is no attachment, when it is missing, and when its type cannot be read', async () => {
    expect(await run({}, task())).toBe('This question has no attached file: there is nothing to read.');
    expect(await run({}, task(join(folder, 'gone.xlsx')))).toMatch(/the attached file gone.xlsx is missing/);
    expect(await run({}, task(join(folder, 't3.png')))).toMatch(
      /^Cannot read t3.png: it is an image \(PNG image, image\/png\); read_file returns text only/,
    );
  });

  it('caps its output and says how to read on', async () => {
    const small = createReadFileTool({ maxChars: 10 });
    const t = task(join(folder, 'long.txt'));
    const first = await small.execute?.({}, { task: t });
    expect(first).toBe(
      'File: long.txt (text (.txt), 1 line, 25 characters)\n\nxxxxxxxxxx\n\n' +
        '[Showing characters 0–10 of 25. Call read_file again with offset 10 to read on.]',
    );
    const last = await small.execute?.({ offset: 20 }, { task: t });
    expect(last).toMatch(/xxxxx\n\n\[Showing characters 20–25 of 25\. This is the end of the text\.\]$/);
    expect(await small.execute?.({ offset: -1 }, { task: t })).toMatch(
      /^Error: offset must be a whole number/,
    );
  });

  it('throws when run without the episode task (a wiring error, not a model error)', async () => {
    await expect(Promise.resolve().then(() => tool.execute?.({}, {}))).rejects.toThrow(
      /needs the episode task/,
    );
  });
});
