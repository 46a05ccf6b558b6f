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
    const renamedWarnings: string[] = [];
    let store = openRunStore(renamed, { segmentBytes: 1500, onWarning: (w) => renamedWarnings.push(w) });
    expect(store.read('rollouts')).toEqual(all);
    // …and compressed on opening, as the interrupted rotation would have done: no plain segment for good.
    expect(segmentNames(renamed)).toContain(gz1);
    expect(segmentNames(renamed).every((s) => s.endsWith('.gz'))).toBe(true);
    expect(renamedWarnings.some((w) => w.includes('a rotation interrupted before compressing it'))).toBe(
      true,
    );
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

  it("compresses a plain segment a SIGKILL between the rotation's rename and its compression left (a real child process)", async () => {
    // Segments of 24 MiB: reading and compressing one takes long enough (tens of ms) for the parent, polling
    // the segments folder, to kill the child while the plain segment is there and its .gz is not.
    const recordBytes = 4 * 1024 * 1024;
    const lineBytes = `${JSON.stringify({ seq: '00000000', payload: 'x'.repeat(recordBytes) })}\n`.length;
    const segmentBytes = 6 * lineBytes - 1;
    let hit: { dir: string; plain: string[] } | undefined;
    for (let attempt = 0; attempt < 6 && !hit; attempt++) {
      const dir = tempDir();
      const child = fork(childScript, [dir, String(recordBytes), String(segmentBytes)], { stdio: 'ignore' });
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
      });
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      const deadline = Date.now() + 20_000;
      let plain: string[] = [];
      while (Date.now() < deadline) {
        const names = segmentNames(dir);
        plain = names.filter((n) => n.endsWith('.jsonl') && !names.includes(`${n}.gz`));
        if (plain.length > 0) break;
        await new Promise((r) => setImmediate(r));
      }
      child.kill('SIGKILL');
      await exited;
      // Only a kill that left the plain segment without its .gz twin is the state under test.
      const names = segmentNames(dir);
      plain = names.filter((n) => n.endsWith('.jsonl') && !names.includes(`${n}.gz`));
      if (plain.length > 0) hit = { dir, plain };
    }
    expect(hit, 'no kill landed between the rename and the compression in 6 tries').toBeDefined();
    const { dir, plain } = hit as { dir: string; plain: string[] };
    const records = Number(/\.n(\d+)\./.exec(plain[0] as string)?.[1]);
    const warnings: string[] = [];
    const store = openRunStore(dir, { segmentBytes, onWarning: (w) => warnings.push(w) });
    const names = segmentNames(dir);
    expect(names.filter((n) => n.endsWith('.jsonl'))).toEqual([]);
    expect(names).toContain(`${plain[0]}.gz`);
    expect(warnings.some((w) => w.includes(`segments/${plain[0]}`) && w.includes('interrupted'))).toBe(true);
    const gz = gunzipSync(readFileSync(join(dir, 'segments', `${plain[0]}.gz`)));
    expect(gz.toString('utf8').split('\n').filter(Boolean)).toHaveLength(records);
    let i = 0;
    for (const r of store.iterate<{ seq: string; payload: string }>('rollouts')) {
      expect(r.seq).toBe(String(i).padStart(8, '0'));
      expect(r.payload.length).toBe(recordBytes);
      i++;
    }
    expect(i).toBe(store.count('rollouts'));
    expect(i).toBeGreaterThanOrEqual(records);
    store.close();
  }, 180_000);

  it('segmentOnClose: a run smaller than one segment is stored compressed, and reopens, grows and reads the same', () => {
    const dir = tempDir();
    const written: object[] = [];
    let store = openRunStore(dir, { segmentBytes: 1 << 20, segmentOnClose: true });
    for (let i = 0; i < 40; i++) written.push(record(i));
    store.appendMany('rollouts', written);
    store.append('events', { type: 'run:start' });
    store.close();
    expect(existsSync(join(dir, 'rollouts.jsonl'))).toBe(false);
    expect(segmentNames(dir)).toEqual(['events.000001.n1.jsonl.gz', 'rollouts.000001.n40.jsonl.gz']);
    const plainBytes = written.map((r) => JSON.stringify(r).length + 1).reduce((a, b) => a + b, 0);
    expect(statSync(join(dir, 'segments', 'rollouts.000001.n40.jsonl.gz')).size).toBeLessThan(plainBytes / 4);
    expect([...readRunStream(dir, 'rollouts')]).toEqual(written);

    // A resumed session appends to a new open file; closing it again makes the next segment.
    store = openRunStore(dir, { segmentBytes: 1 << 20, segmentOnClose: true });
    expect(store.count('rollouts')).toBe(40);
    store.append('rollouts', record(40));
    written.push(record(40));
    expect(store.read('rollouts')).toEqual(written);
    store.close();
    expect(segmentNames(dir)).toContain('rollouts.000002.n1.jsonl.gz');
    // A stream the session did not touch is left as it is (its open file holds nothing new).
    expect(segmentNames(dir).filter((s) => s.startsWith('events.'))).toEqual(['events.000001.n1.jsonl.gz']);
    // Without the option, and with the older single-file reader paths, the records are the same.
    const plain = openRunStore(dir);
    expect(plain.read('rollouts')).toEqual(written);
    plain.close();
    expect([...readRunStream(dir, 'rollouts')]).toEqual(written);
  });

  it('segmentOnCloseBytes: only open files at least that large become segments; smaller ones stay plain', () => {
    const dir = tempDir();
    const rollouts = Array.from({ length: 40 }, (_, i) => record(i));
    const store = openRunStore(dir, {
      segmentBytes: 1 << 20,
      segmentOnClose: true,
      segmentOnCloseBytes: 2048,
    });
    store.appendMany('rollouts', rollouts);
    store.append('events', { type: 'run:start' });
    const rolloutBytes = statSync(join(dir, 'rollouts.jsonl')).size;
    expect(rolloutBytes).toBeGreaterThan(2048);
    expect(statSync(join(dir, 'events.jsonl')).size).toBeLessThan(2048);
    store.close();
    expect(segmentNames(dir)).toEqual(['rollouts.000001.n40.jsonl.gz']);
    expect(existsSync(join(dir, 'rollouts.jsonl'))).toBe(false);
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe('{"type":"run:start"}\n');
    expect([...readRunStream(dir, 'rollouts')]).toEqual(rollouts);
  });

  it('property: any sequence of appends, closes and reopens under any layout option reads back every record once, in order', () => {
    const rng = createRng('run-store-layouts');
    for (let trial = 0; trial < 25; trial++) {
      const dir = tempDir();
      const written: Record<string, object[]> = { rollouts: [], events: [] };
      let n = 0;
      const sessions = 1 + rng.int(5);
      for (let s = 0; s < sessions; s++) {
        // Each session may choose another layout, as a resumed run with a changed `store` section would.
        const options = {
          onWarning: () => {},
          ...(rng.int(3) > 0 ? { segmentBytes: 200 + rng.int(3000) } : {}),
          ...(rng.int(2) === 0 ? { compression: 'none' as const } : {}),
          ...(rng.int(2) === 0 ? { segmentOnClose: true } : {}),
        };
        const store = openRunStore(dir, options);
        for (const [stream, list] of Object.entries(written)) expect(store.count(stream)).toBe(list.length);
        const ops = rng.int(30);
        for (let o = 0; o < ops; o++) {
          const stream = rng.int(3) === 0 ? 'events' : 'rollouts';
          const batch = Array.from({ length: 1 + rng.int(3) }, () => record(n++));
          if (batch.length === 1) store.append(stream, batch[0] as object);
          else store.appendMany(stream, batch);
          written[stream]?.push(...batch);
        }
        for (const [stream, list] of Object.entries(written)) expect(store.read(stream)).toEqual(list);
        store.close();
        for (const [stream, list] of Object.entries(written)) {
          expect([...readRunStream(dir, stream)]).toEqual(list);
        }
      }
    }
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
