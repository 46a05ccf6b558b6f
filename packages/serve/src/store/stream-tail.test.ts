import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunStore } from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamTail } from './stream-tail.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-tail-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function reader(dir: string) {
  const tail = new StreamTail(dir, 'events', dir);
  const seen: number[] = [];
  let resets = 0;
  const read = () =>
    tail.read({
      line: (l) => seen.push((JSON.parse(l.bytes.toString('utf8')) as { n: number }).n),
      reset: () => {
        resets++;
        seen.length = 0;
      },
    });
  return { tail, seen, read, resets: () => resets };
}

describe('StreamTail', () => {
  it('reads each record once across appends, rotations into gzip segments and a close', () => {
    const dir = fresh();
    // Small segments: a rotation every few records, as a long run's 4 MiB segments would.
    const store = openRunStore(dir, { segmentBytes: 200, segmentOnClose: true, onWarning: () => {} });
    const r = reader(dir);
    let n = 0;
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 1 + (round % 4); i++) store.append('events', { n: n++, pad: 'x'.repeat(30) });
      r.read();
      expect(r.seen).toEqual(Array.from({ length: n }, (_, i) => i));
    }
    store.close();
    r.read();
    expect(r.seen).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(r.tail.records).toBe(n);
    expect(r.resets()).toBe(0);
  });

  it('waits for an unfinished last line and reads it once it ends', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'events.jsonl'), '{"n":0}\n{"n":1');
    const r = reader(dir);
    r.read();
    expect(r.seen).toEqual([0]);
    appendFileSync(join(dir, 'events.jsonl'), '}\n{"n":2}\n');
    r.read();
    expect(r.seen).toEqual([0, 1, 2]);
  });

  it('gives each line its place and byte range in the file that holds it', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'events.jsonl'), '{"n":0}\n\n{"n":1}\n');
    const tail = new StreamTail(dir, 'events', dir);
    const lines: [number, number, number][] = [];
    tail.read({ line: (l) => lines.push([l.ordinal, l.start, l.end]), reset: () => {} });
    // The blank line is not a record (the store never writes one and does not count it).
    expect(lines).toEqual([
      [0, 0, 7],
      [1, 9, 16],
    ]);
  });

  it('starts over when the stream was rewritten shorter under it', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'events.jsonl'), '{"n":0}\n{"n":1}\n{"n":2}\n');
    const r = reader(dir);
    r.read();
    writeFileSync(join(dir, 'events.jsonl'), '{"n":0}\n{"n":2}\n');
    r.read();
    expect(r.resets()).toBe(1);
    expect(r.seen).toEqual([0, 2]);
  });

  it('costs nothing when nothing changed', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'events.jsonl'), '{"n":0}\n');
    const r = reader(dir);
    expect(r.read()).toBe(1);
    expect(r.read()).toBe(0);
    expect(r.read()).toBe(0);
  });
});
