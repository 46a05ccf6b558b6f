import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LatestRecords, readLatestRecords, recordIdOf } from './latest-records.js';
import { openRunStore } from './open-run-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const trajectory = (id: string, reward = 0) => ({
  id,
  taskId: 't',
  family: 'f',
  condition: 0,
  steps: [{ index: 0, observation: 'x'.repeat(300), action: 'look', reward: 0, done: false }],
  reward,
  verdict: { score: reward, passed: reward > 0 },
});

describe('LatestRecords', () => {
  it('reads trajectories back by id across gzip segments and the open file; the last record of an id wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-stored-'));
    dirs.push(dir);
    const store = openRunStore(dir, { segmentBytes: 4096 });
    for (let i = 0; i < 60; i++) store.append('rollouts', trajectory(`s1/t:${i}`));
    store.append('rollouts', trajectory('s1/t:3', 1));
    const stored = new LatestRecords(dir);
    expect(stored.size).toBe(60);
    expect(stored.get('s1/t:0')?.id).toBe('s1/t:0');
    expect(stored.get('s1/t:59')?.id).toBe('s1/t:59');
    expect(stored.get('s1/t:3')?.reward).toBe(1);
    expect(stored.get('nope')).toBeUndefined();
    // The run goes on: the open file is rotated into a segment, and a record read from it still comes back.
    for (let i = 60; i < 80; i++) store.append('rollouts', trajectory(`s2/t:${i}`));
    expect(stored.get('s1/t:58')?.id).toBe('s1/t:58');
    store.close();
  });

  it('reads an id from the start of a line without keeping the line, and parses other shapes', () => {
    const line = JSON.stringify(trajectory('v0/household/a:c1:i0'));
    expect(recordIdOf(line)).toBe('v0/household/a:c1:i0');
    expect(recordIdOf(JSON.stringify({ id: 'with "quote"', x: 1 }))).toBe('with "quote"');
    expect(recordIdOf(JSON.stringify({ x: 1, id: 'later' }))).toBe('later');
    expect(recordIdOf('{"x":1}')).toBeUndefined();
    expect(recordIdOf('not json')).toBeUndefined();
  });
});

describe('readLatestRecords', () => {
  it('streams each id once, as its latest record, in file order; other records as they are', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-latest-'));
    dirs.push(dir);
    const store = openRunStore(dir, { segmentBytes: 4096 });
    for (let i = 0; i < 30; i++) store.append('rollouts', trajectory(`s1/t:${i}`));
    // An errored record, then its re-run: the re-run is the one every reader sees.
    store.append('rollouts', { ...trajectory('s2/t:0'), error: { code: 'model', message: 'down' } });
    store.append('rollouts', trajectory('s2/t:1'));
    store.append('rollouts', trajectory('s2/t:0', 1));
    store.close();
    const seen = [...readLatestRecords<{ id: string; reward: number; error?: unknown }>(dir, 'rollouts')];
    expect(seen.map((t) => t.id)).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `s1/t:${i}`),
      's2/t:1',
      's2/t:0',
    ]);
    // Only the wanted ids, each still as its latest record.
    const wanted = [
      ...readLatestRecords<{ id: string; reward: number }>(dir, 'rollouts', {
        want: (id) => id.startsWith('s2/'),
      }),
    ];
    expect(wanted.map((t) => [t.id, t.reward])).toEqual([
      ['s2/t:1', 0],
      ['s2/t:0', 1],
    ]);
    const rerun = seen.find((t) => t.id === 's2/t:0');
    expect(rerun?.reward).toBe(1);
    expect(rerun?.error).toBeUndefined();
  });

  it('keys other shapes with keyOf (a rollout event by its trajectoryId) and names a damaged line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-latest-'));
    dirs.push(dir);
    const store = openRunStore(dir);
    store.append('events', { type: 'run:start' });
    store.append('events', { type: 'rollout', trajectoryId: 'a', passed: false, error: 'model' });
    store.append('events', { type: 'rollout', trajectoryId: 'a', passed: true });
    store.close();
    writeFileSync(join(dir, 'events.jsonl'), `${readFileSync(join(dir, 'events.jsonl'), 'utf8')}{oops\n`);
    const notes: unknown[] = [];
    const events = [
      ...readLatestRecords<{ type: string; trajectoryId?: string; passed?: boolean }>(dir, 'events', {
        keyOf: (e) => (e.type === 'rollout' ? e.trajectoryId : undefined),
        onNote: (n) => notes.push(n),
      }),
    ];
    expect(events).toEqual([{ type: 'run:start' }, { type: 'rollout', trajectoryId: 'a', passed: true }]);
    expect(notes).toEqual([{ kind: 'damaged', file: 'events.jsonl', lineNo: 4 }]);
  });
});
