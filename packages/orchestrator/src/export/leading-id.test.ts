import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonlLines, jsonlRecords, leadingId } from './read-jsonl-records.js';

describe('jsonlLines', () => {
  it('reads lines across chunk boundaries, skips blanks, and leaves out an unfinished last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-jsonl-'));
    const path = join(dir, 'rollouts.jsonl');
    // A line of 2.5 MiB spans three 1 MiB chunks; a multi-byte character sits on a boundary.
    const long = { id: 's1/a', text: `${'x'.repeat((1 << 20) - 20)}é${'y'.repeat(1.5 * (1 << 20))}` };
    writeFileSync(
      path,
      `${JSON.stringify({ id: 's1/"q"' })}\n\n${JSON.stringify(long)}\n{"id":"s2/torn","ste`,
    );
    const records = [...jsonlRecords<{ id: string; text?: string }>(path)];
    expect(records.map((r) => r.id)).toEqual(['s1/"q"', 's1/a']);
    expect(records[1]?.text).toBe(long.text);
    const lines = [...jsonlLines(path)];
    expect(lines.map(leadingId)).toEqual(['s1/"q"', 's1/a']);
    expect(leadingId('{"taskId":"t","id":"x"}')).toBeUndefined();
    expect([...jsonlLines(join(dir, 'missing.jsonl'))]).toEqual([]);
  });
});
