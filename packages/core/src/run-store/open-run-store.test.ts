import { fork } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStoreError } from '../errors/run-store-error.js';
import { createRng } from '../rng/create-rng.js';
import { openRunStore } from './open-run-store.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const childScript = join(import.meta.dirname, '../../test-fixtures/append-forever.mjs');

describe('openRunStore', () => {
  it('appends JSONL records, reads them back in order, and counts them', () => {
    const dir = tempDir();
    const store = openRunStore(dir);
    store.append('events', { type: 'run:start', n: 1 });
    store.appendMany('events', [{ n: 2 }, { n: 3 }]);
    store.append('rollouts', { id: 'a', text: 'line\nbreak' });
    expect(store.read('events')).toEqual([{ type: 'run:start', n: 1 }, { n: 2 }, { n: 3 }]);
    expect(store.count('events')).toBe(3);
    expect(store.streams()).toEqual(['events', 'rollouts']);
    expect(readFileSync(join(dir, 'rollouts.jsonl'), 'utf8')).toBe('{"id":"a","text":"line\\nbreak"}\n');
    store.close();
    const again = openRunStore(dir);
    expect(again.count('events')).toBe(3);
    expect(again.recovery.records).toEqual({ events: 3, rollouts: 1 });
    expect(again.recovery.torn).toEqual([]);
    again.append('events', { n: 4 });
    expect(again.read('events')).toHaveLength(4);
    again.close();
  });

  it('writes snapshots atomically and returns the latest with the stream counts at that moment', () => {
    const dir = tempDir();
    const store = openRunStore(dir);
    expect(store.latestSnapshot()).toBeUndefined();
    store.append('rollouts', { i: 0 });
    const first = store.writeSnapshot('step', { step: 1 });
    store.append('rollouts', { i: 1 });
    store.writeSnapshot('step', { step: 2 });
    const latest = store.latestSnapshot<{ step: number }>();
    expect(latest?.value).toEqual({ step: 2 });
    expect(latest?.seq).toBe(first.seq + 1);
    expect(latest?.streams).toEqual({ rollouts: 2 });
    expect(first.streams).toEqual({ rollouts: 1 });
    store.close();
    // Sequence numbers continue after reopening.
    const again = openRunStore(dir);
    expect(again.writeSnapshot('step', { step: 3 }).seq).toBe(2);
    again.close();
  });

  it('writes files inside the run directory only', () => {
    const dir = tempDir();
    const store = openRunStore(dir);
    const path = store.writeFile('skills/1/heat/SKILL.md', '---\nname: heat\n---\n');
    expect(readFileSync(path, 'utf8')).toBe('---\nname: heat\n---\n');
    expect(store.readFile('skills/1/heat/SKILL.md')).toContain('name: heat');
    expect(store.readFile('missing.txt')).toBeUndefined();
    expect(() => store.writeFile('../escape.txt', 'x')).toThrow(/outside the run directory/);
    expect(() => store.append('Bad Name', {})).toThrow(/stream name/);
    store.close();
    expect(() => store.append('events', {})).toThrow(RunStoreError);
  });

  it('removes a temp file a killed write left beside a skill, at any depth under skills/', () => {
    const dir = tempDir();
    const store = openRunStore(dir);
    store.writeFile('skills/3/task-1/heat/SKILL.md', '---\nname: heat\n---\n');
    store.close();
    // What a SIGKILL between writing the temp file and renaming it leaves (writeFileAtomic's name).
    const stray = 'skills/3/task-1/heat/.tmp-4242-1700000000000-0-SKILL.md';
    writeFileSync(join(dir, stray), '---\nname: he');
    const again = openRunStore(dir);
    expect(again.recovery.removedTempFiles).toEqual([stray]);
    expect(existsSync(join(dir, stray))).toBe(false);
    expect(again.readFile('skills/3/task-1/heat/SKILL.md')).toContain('name: heat');
    again.close();
  });

  it('drops a torn last line with a warning and refuses a corrupt middle line', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'events.jsonl'), '{"a":1}\n{"a":2}\n{"a":');
    const warnings: string[] = [];
    const store = openRunStore(dir, { onWarning: (w) => warnings.push(w) });
    expect(store.read('events')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(store.recovery.torn).toEqual([{ stream: 'events', bytes: 5 }]);
    expect(warnings[0]).toContain('dropped a torn last line');
    store.append('events', { a: 3 });
    expect(store.read('events')).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    store.close();

    const bad = tempDir();
    writeFileSync(join(bad, 'events.jsonl'), '{"a":1}\nnot json\n{"a":3}\n');
    expect(() => openRunStore(bad, { onWarning: () => {} })).toThrow(
      /line 2 is not valid JSON but is followed by more records/,
    );
    // A damaged last line that ends with a newline was not torn by a crash either, and is said so.
    writeFileSync(join(bad, 'events.jsonl'), '{"a":1}\n{"a":\n\n');
    expect(() => openRunStore(bad, { onWarning: () => {} })).toThrow(
      /line 2, the last, is not valid JSON yet ends with a newline, so no crash tore it/,
    );
  });

  it('says through onWarning when a read leaves out an unfinished last line written after opening, once per line', () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const store = openRunStore(dir, { onWarning: (w) => warnings.push(w) });
    store.append('advantages', { key: 's1', unit: 's1', rows: [] });
    // Another process (or a crash of one) leaves half a record at the end while this store is open.
    appendFileSync(join(dir, 'advantages.jsonl'), '{"key":"s2","unit":"s2","rows":[{"traj');
    expect(store.read('advantages')).toEqual([{ key: 's1', unit: 's1', rows: [] }]);
    expect(warnings).toEqual([
      'advantages.jsonl: left out an unfinished last line (38 bytes): another process is still writing it, or it was torn after this store was opened',
    ]);
    expect([...store.lines('advantages')]).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    store.close();
    // Reopened, the torn line is dropped with the opening warning, naming the stream and the bytes.
    const again = openRunStore(dir, { onWarning: (w) => warnings.push(w) });
    expect(again.recovery.torn).toEqual([{ stream: 'advantages', bytes: 38 }]);
    expect(warnings[1]).toBe(
      'advantages.jsonl: dropped a torn last line (38 bytes after record 1); every complete record was kept',
    );
    again.close();
  });

  it('survives a child process killed with SIGKILL in the middle of an append, at several kill points', async () => {
    const recordBytes = 4 * 1024 * 1024;
    const lineBytes = `${JSON.stringify({ seq: '00000000', payload: 'x'.repeat(recordBytes) })}\n`.length;
    const rng = createRng('run-store-crash');
    let tornSeen = 0;
    const dir = tempDir();
    let expectedSoFar = 0;
    for (let round = 0; round < 3; round++) {
      // Each round resumes in the same directory, so appends must continue cleanly after a recovery.
      const child = fork(childScript, [dir, String(recordBytes)], { stdio: 'ignore' });
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
      });
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      // Let it write a random number of records, then kill it while the file size shows a record
      // half-written: a real SIGKILL in the middle of an append.
      const minRecords = expectedSoFar + 2 + rng.int(3);
      const file = join(dir, 'rollouts.jsonl');
      const deadline = Date.now() + 20_000;
      for (;;) {
        const size = existsSync(file) ? statSync(file).size : 0;
        if ((size / lineBytes >= minRecords && size % lineBytes !== 0) || Date.now() > deadline) break;
        await new Promise((r) => setImmediate(r));
      }
      child.kill('SIGKILL');
      await exited;

      const warnings: string[] = [];
      const sizeBefore = statSync(file).size;
      const store = openRunStore(dir, { onWarning: (w) => warnings.push(w) });
      if (store.recovery.torn.some((t) => t.stream === 'rollouts')) tornSeen++;
      const records = store.read<{ seq: string; payload: string }>('rollouts');
      expect(records.length).toBeGreaterThanOrEqual(minRecords);
      records.forEach((r, i) => {
        expect(r.seq).toBe(String(i).padStart(8, '0'));
        expect(r.payload.length).toBe(recordBytes);
      });
      expect(records.at(-1)!.payload.slice(0, 36)).toBe('abcdefghijklmnopqrstuvwxyz0123456789');
      // Every byte dropped belonged to the torn line; every complete record was kept.
      const tornBytes = store.recovery.torn
        .filter((t) => t.stream === 'rollouts')
        .reduce((s, t) => s + t.bytes, 0);
      expect(statSync(file).size).toBe(sizeBefore - tornBytes);
      expect(statSync(file).size).toBe(records.length * lineBytes);
      expect(warnings.length).toBe(store.recovery.warnings.length);
      const snap = store.latestSnapshot<{ seq: number }>();
      expect(snap).toBeDefined();
      // A snapshot only ever refers to records that were complete when it was written.
      expect(snap!.streams.rollouts).toBeLessThanOrEqual(records.length);
      expect(snap!.value.seq).toBe(snap!.streams.rollouts);
      expectedSoFar = records.length;
      store.close();
    }
    // The kill was timed to land inside a write; the kernel leaves the short write behind, which is
    // exactly the torn line the store must repair.
    expect(tornSeen).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
