import { fork } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../rng/create-rng.js';
import { openRunStore } from './open-run-store.js';
import { readRunStream, readRunStreamLines, type StreamReadNote } from './read-run-stream.js';
import { streamFiles } from './stream-segments.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-segments-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const childScript = join(import.meta.dirname, '../../test-fixtures/append-forever.mjs');
const record = (i: number) => ({ id: `r${i}`, text: `${'repeated text '.repeat(20)}${i}` });
const segmentNames = (dir: string) =>
  existsSync(join(dir, 'segments')) ? readdirSync(join(dir, 'segments')).sort() : [];

describe('segmented streams', () => {
  it('rotates the open file into gzip segments, and every reader sees every record once, in order', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 2000 });
    for (let i = 0; i < 100; i++) store.append('rollouts', record(i));
    store.appendMany('rollouts', [record(100), record(101)]);
    const segments = segmentNames(dir);
    expect(segments.length).toBeGreaterThan(3);
    expect(segments.every((s) => /^rollouts\.\d{6}\.n\d+\.jsonl\.gz$/.test(s))).toBe(true);
    // The open file is plain and below the threshold; it always exists after an append.
    expect(statSync(join(dir, 'rollouts.jsonl')).size).toBeLessThan(2000);
    const expected = Array.from({ length: 102 }, (_, i) => record(i));
    expect(store.read('rollouts')).toEqual(expected);
    expect([...store.iterate('rollouts')]).toEqual(expected);
    expect([...store.lines('rollouts')].map((l) => JSON.parse(l))).toEqual(expected);
    expect(store.count('rollouts')).toBe(102);
    // Record counts in the names add up, so counting never inflates a segment.
    const named = segments.reduce((n, s) => n + Number(/\.n(\d+)\./.exec(s)?.[1]), 0);
    expect(named + readFileSync(join(dir, 'rollouts.jsonl'), 'utf8').split('\n').filter(Boolean).length).toBe(
      102,
    );
    const snap = store.writeSnapshot('step', { step: 1 });
    expect(snap.streams.rollouts).toBe(102);
    store.close();

    const again = openRunStore(dir, { segmentBytes: 2000 });
    expect(again.count('rollouts')).toBe(102);
    expect(again.recovery.records.rollouts).toBe(102);
    again.append('rollouts', record(102));
    expect(again.read('rollouts')).toEqual([...expected, record(102)]);
    again.close();
    // A read-only reader, and a store opened without rotation, read the same records.
    expect([...readRunStream(dir, 'rollouts')]).toEqual([...expected, record(102)]);
    const plainStore = openRunStore(dir);
    expect(plainStore.count('rollouts')).toBe(103);
    expect(plainStore.read('rollouts')).toHaveLength(103);
    plainStore.close();
    // Compression is what makes the layout small: repeated text shrinks several times.
    const gz = segments.map((s) => statSync(join(dir, 'segments', s)).size).reduce((a, b) => a + b, 0);
    const raw = segments
      .map((s) => gunzipSync(readFileSync(join(dir, 'segments', s))).length)
      .reduce((a, b) => a + b, 0);
    expect(raw / gz).toBeGreaterThan(4);
  });

  it('keeps plain segments with compression "none"', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 1000, compression: 'none' });
    for (let i = 0; i < 30; i++) store.append('events', record(i));
    store.close();
    expect(segmentNames(dir).every((s) => s.endsWith('.jsonl'))).toBe(true);
    expect([...readRunStream(dir, 'events')]).toHaveLength(30);
  });

  it('reads a run directory written before segments existed (one plain file per stream)', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'rollouts.jsonl'),
      `${[0, 1, 2].map((i) => JSON.stringify(record(i))).join('\n')}\n`,
    );
    expect(streamFiles(dir, 'rollouts')).toEqual([{ path: join(dir, 'rollouts.jsonl'), gzip: false }]);
    expect([...readRunStream(dir, 'rollouts')]).toEqual([record(0), record(1), record(2)]);
    // Resumed with rotation on: the old file becomes the first segment at the first rotation.
    const store = openRunStore(dir, { segmentBytes: 500 });
    expect(store.count('rollouts')).toBe(3);
    store.append('rollouts', record(3));
    store.append('rollouts', record(4));
    expect(store.read('rollouts')).toEqual([0, 1, 2, 3, 4].map(record));
    expect(segmentNames(dir)[0]).toBe('rollouts.000001.n4.jsonl.gz');
    store.close();
  });

  it('reopens correctly from every state a crash can leave inside a rotation', () => {
    const build = () => {
      const dir = tempDir();
      const store = openRunStore(dir, { segmentBytes: 1500 });
      for (let i = 0; i < 40; i++) store.append('rollouts', record(i));
      store.close();
      return dir;
    };
    const all = Array.from({ length: 40 }, (_, i) => record(i));
    const lastGz = (dir: string) =>
      segmentNames(dir)
        .filter((s) => s.endsWith('.gz'))
        .pop() as string;

    // (1) Killed after the rename, before compressing: the plain segment is read, and no open file exists.
    const renamed = build();
    const gz1 = lastGz(renamed);
    writeFileSync(
      join(renamed, 'segments', gz1.replace(/\.gz$/, '')),
      gunzipSync(readFileSync(join(renamed, 'segments', gz1))),
    );
    rmSync(join(renamed, 'segments', gz1));
    rmSync(join(renamed, 'rollouts.jsonl'));
    let store = openRunStore(renamed, { segmentBytes: 1500, onWarning: () => {} });
    expect(store.read('rollouts')).toEqual(all);
    store.append('rollouts', record(40));
    expect(store.read('rollouts')).toEqual([...all, record(40)]);
    store.close();

    // (2) Killed after the .gz was written, before the plain copy was removed: read once, the copy removed.
    const both = build();
    const gz2 = lastGz(both);
    writeFileSync(
      join(both, 'segments', gz2.replace(/\.gz$/, '')),
      gunzipSync(readFileSync(join(both, 'segments', gz2))),
    );
    expect([...readRunStream(both, 'rollouts')]).toEqual(all);
    const warnings: string[] = [];
    store = openRunStore(both, { segmentBytes: 1500, onWarning: (w) => warnings.push(w) });
    expect(store.read('rollouts')).toEqual(all);
    expect(warnings.some((w) => w.includes('its compressed copy is complete'))).toBe(true);
    expect(segmentNames(both).some((s) => s === gz2.replace(/\.gz$/, ''))).toBe(false);
    store.close();

    // (3) Killed while writing the .gz (a temp file left behind): removed; the plain segment stands.
    const writing = build();
    const gz3 = lastGz(writing);
    const plain3 = join(writing, 'segments', gz3.replace(/\.gz$/, ''));
    writeFileSync(plain3, gunzipSync(readFileSync(join(writing, 'segments', gz3))));
    renameSync(join(writing, 'segments', gz3), join(writing, 'segments', `.tmp-1-2-3-${gz3}`));
    store = openRunStore(writing, { segmentBytes: 1500, onWarning: () => {} });
    expect(store.recovery.removedTempFiles).toEqual([`segments/.tmp-1-2-3-${gz3}`]);
    expect(store.read('rollouts')).toEqual(all);
    store.close();

    // (4) A torn last line in the open file is dropped as before; the segments are untouched.
    const torn = build();
    const before = segmentNames(torn);
    writeFileSync(
      join(torn, 'rollouts.jsonl'),
      `${readFileSync(join(torn, 'rollouts.jsonl'), 'utf8')}{"id":`,
    );
    store = openRunStore(torn, { segmentBytes: 1500, onWarning: () => {} });
    expect(store.recovery.torn).toEqual([{ stream: 'rollouts', bytes: 6 }]);
    expect(store.read('rollouts')).toEqual(all);
    expect(segmentNames(torn)).toEqual(before);
    store.close();
  });

  it('read-only readers skip a tail still being written and damaged lines, with notes, and never write', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 800 });
    for (let i = 0; i < 12; i++) store.append('events', record(i));
    store.close();
    const open = join(dir, 'events.jsonl');
    writeFileSync(open, `${readFileSync(open, 'utf8')}not json\n{"id":"half`);
    const copy = join(dir, 'copy');
    copyFileSync(open, copy);
    const notes: StreamReadNote[] = [];
    const records = [...readRunStream<{ id: string }>(dir, 'events', { onNote: (n) => notes.push(n) })];
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 12 }, (_, i) => `r${i}`));
    expect(notes).toEqual([
      { kind: 'damaged', file: 'events.jsonl', lineNo: expect.any(Number) },
      { kind: 'torn', file: 'events.jsonl', bytes: 11 },
    ]);
    expect(readFileSync(open, 'utf8')).toBe(readFileSync(copy, 'utf8'));
    expect([...readRunStreamLines(dir, 'events')]).toHaveLength(13);
    expect([...readRunStream(dir, 'missing')]).toEqual([]);
  });

  it('prunes all but the newest k snapshots', () => {
    const dir = tempDir();
    const store = openRunStore(dir);
    for (let i = 0; i < 5; i++) store.writeSnapshot('step', { step: i });
    writeFileSync(join(dir, 'checkpoints', 'snapshot-00000009.json'), '{"torn":');
    const { kept, removed } = store.pruneSnapshots<{ step: number }>(2);
    expect(kept.map((s) => s.value.step)).toEqual([4, 3]);
    expect(removed).toEqual([
      'checkpoints/snapshot-00000002.json',
      'checkpoints/snapshot-00000001.json',
      'checkpoints/snapshot-00000000.json',
    ]);
    expect(store.latestSnapshot<{ step: number }>()?.value.step).toBe(4);
    expect(() => store.pruneSnapshots(0)).toThrow(/keep/);
    store.close();
  });

  it('survives SIGKILL at random moments while rotating and compressing segments', async () => {
    const recordBytes = 256 * 1024;
    const lineBytes = `${JSON.stringify({ seq: '00000000', payload: 'x'.repeat(recordBytes) })}\n`.length;
    const rng = createRng('run-store-segments-crash');
    const dir = tempDir();
    let expectedSoFar = 0;
    for (let round = 0; round < 4; round++) {
      // Rotation every 3 records: kills land in appends, renames, compressions and removals alike.
      const child = fork(childScript, [dir, String(recordBytes), String(3 * lineBytes - 1)], {
        stdio: 'ignore',
      });
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
      });
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      await new Promise((r) => setTimeout(r, 150 + rng.int(400)));
      child.kill('SIGKILL');
      await exited;

      const store = openRunStore(dir, { segmentBytes: 3 * lineBytes - 1, onWarning: () => {} });
      let i = 0;
      for (const r of store.iterate<{ seq: string; payload: string }>('rollouts')) {
        expect(r.seq).toBe(String(i).padStart(8, '0'));
        expect(r.payload.length).toBe(recordBytes);
        i++;
      }
      expect(i).toBeGreaterThanOrEqual(expectedSoFar);
      expect(store.count('rollouts')).toBe(i);
      const snap = store.latestSnapshot<{ seq: number }>();
      if (snap) {
        expect(snap.streams.rollouts).toBeLessThanOrEqual(i);
        expect(snap.value.seq).toBe(snap.streams.rollouts);
      }
      expectedSoFar = i;
      store.close();
    }
    expect(expectedSoFar).toBeGreaterThan(6);
    expect(segmentNames(dir).length).toBeGreaterThan(1);
  }, 120_000);
});
