import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonl } from './read-jsonl.js';

const dir = mkdtempSync(join(tmpdir(), 'skillrl-report-jsonl-'));

describe('readJsonl', () => {
  it('reads every complete record and skips blank lines', () => {
    const path = join(dir, 'ok.jsonl');
    writeFileSync(path, '{"a":1}\n\n{"a":2}\n');
    expect(readJsonl(path, 'ok.jsonl')).toEqual({ exists: true, records: [{ a: 1 }, { a: 2 }], notes: [] });
  });

  it('says a missing file does not exist, without a note of its own', () => {
    expect(readJsonl(join(dir, 'absent.jsonl'), 'absent.jsonl')).toEqual({
      exists: false,
      records: [],
      notes: [],
    });
  });

  it('skips an unfinished last line with a note and leaves the file as it was', () => {
    const path = join(dir, 'torn.jsonl');
    const text = '{"a":1}\n{"a":';
    writeFileSync(path, text);
    const read = readJsonl(path, 'torn.jsonl');
    expect(read.records).toEqual([{ a: 1 }]);
    expect(read.notes).toHaveLength(1);
    expect(read.notes[0]).toContain('unfinished (5 bytes');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('skips damaged lines in the middle and names them', () => {
    const path = join(dir, 'damaged.jsonl');
    writeFileSync(path, '{"a":1}\nnot json\n{"a":3}\n{oops\n');
    const read = readJsonl(path, 'damaged.jsonl');
    expect(read.records).toEqual([{ a: 1 }, { a: 3 }]);
    expect(read.notes).toEqual(['damaged.jsonl: skipped 2 line(s) that are not valid JSON (line 2, 4).']);
  });
});
