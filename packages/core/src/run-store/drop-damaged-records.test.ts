import {
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
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRunStreams } from './check-run-streams.js';
import { type DamagedEntry, dropDamagedRecords } from './drop-damaged-records.js';
import { openRunStore } from './open-run-store.js';
import { readRunStream } from './read-run-stream.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-drop-damaged-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const trajectory = (id: string) => ({
  id,
  taskId: 'task-1',
  family: 'pick',
  condition: 0,
  steps: [{ index: 0, observation: 'You are in a kitchen.', action: 'look', reward: 0, done: true }],
  reward: 0,
  verdict: { score: 0, passed: false },
});
const NOW = () => new Date('2026-01-02T03:04:05.000Z');
const kept = (dir: string, stream: string): DamagedEntry[] =>
  readFileSync(join(dir, 'damaged', `${stream}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DamagedEntry);
const segments = (dir: string, stream: string) =>
  readdirSync(join(dir, 'segments'))
    .filter((f) => f.startsWith(`${stream}.`))
    .sort();

describe('dropDamagedRecords', () => {
  it('a plain file: the lines go to damaged/<stream>.jsonl exactly, every other byte stays, and the store opens as before', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { onWarning: () => {} });
    for (let i = 0; i < 4; i++) store.append('rollouts', trajectory(`s1/t${i}`));
    store.close();
    const path = join(dir, 'rollouts.jsonl');
    const good = readFileSync(path, 'utf8').split('\n');
    const { steps: _s, ...noSteps } = trajectory('s1/t1');
    const damagedLine = JSON.stringify(noSteps);
    const notJson = '\u00e9t\u00e9 <<<<<<< HEAD';
    // Lines 2 and 4 are damaged; a blank line stays; the torn tail stays for the store to drop.
    const original = `${good[0]}\n${damagedLine}\n${good[2]}\n${notJson}\n\n${good[3]}\n{"id":"s1/t4","ta`;
    writeFileSync(path, original);
    // A stream without damage is not touched.
    writeFileSync(join(dir, 'units.jsonl'), '{"key":"s1","unit":"s1","rollouts":4,"errored":0,"rerun":0}\n');
    const unitsBefore = statSync(join(dir, 'units.jsonl')).mtimeMs;

    const dropped = dropDamagedRecords(dir, { now: NOW });
    expect(dropped.records.map((r) => `${r.file}:${r.lineNo}`)).toEqual([
      'rollouts.jsonl:2',
      'rollouts.jsonl:4',
    ]);
    expect(dropped.files).toEqual([{ from: 'rollouts.jsonl', to: 'rollouts.jsonl' }]);
    expect(dropped.kept).toEqual(['damaged/rollouts.jsonl']);
    expect(readFileSync(path, 'utf8')).toBe(`${good[0]}\n${good[2]}\n\n${good[3]}\n{"id":"s1/t4","ta`);
    expect(statSync(join(dir, 'units.jsonl')).mtimeMs).toBe(unitsBefore);
    expect(kept(dir, 'rollouts')).toEqual([
      {
        stream: 'rollouts',
        file: 'rollouts.jsonl',
        lineNo: 2,
        reason: 'not a valid trajectory: $.steps: is required but missing',
        droppedAt: '2026-01-02T03:04:05.000Z',
        text: damagedLine,
      },
      {
        stream: 'rollouts',
        file: 'rollouts.jsonl',
        lineNo: 4,
        reason: expect.stringMatching(/^not valid JSON/),
        droppedAt: '2026-01-02T03:04:05.000Z',
        text: notJson,
      },
    ]);
    expect(checkRunStreams(dir)).toEqual([]);
    const warnings: string[] = [];
    const reopened = openRunStore(dir, { onWarning: (m) => warnings.push(m) });
    expect(reopened.read<{ id: string }>('rollouts').map((t) => t.id)).toEqual(['s1/t0', 's1/t2', 's1/t3']);
    reopened.close();
    expect(warnings.join('\n')).toContain('rollouts.jsonl: dropped a torn last line');
    // Nothing left to do the second time.
    expect(dropDamagedRecords(dir).records).toEqual([]);
  });

  it('a gzip segment: rewritten under its own sequence number with the record count of its name made right', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 900, onWarning: () => {} });
    for (let i = 0; i < 12; i++) store.append('rollouts', trajectory(`s1/t${i}`));
    store.close();
    const [first, ...rest] = segments(dir, 'rollouts') as [string, ...string[]];
    const m = /^rollouts\.(\d{6})\.n(\d+)\.jsonl\.gz$/.exec(first) as RegExpExecArray;
    const records = Number(m[2]);
    expect(records).toBeGreaterThan(2);
    const path = join(dir, 'segments', first);
    const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
    const bad = JSON.stringify({ ...trajectory('s1/t1'), steps: 'none' });
    lines[1] = bad;
    writeFileSync(path, gzipSync(lines.join('\n')));
    const restBefore = rest.map((f) => readFileSync(join(dir, 'segments', f)));
    const ids = [...readRunStream<{ id: string }>(dir, 'rollouts')].map((t) => t.id);

    const dropped = dropDamagedRecords(dir, { now: NOW });
    const renamed = `rollouts.${m[1]}.n${records - 1}.jsonl.gz`;
    expect(dropped.files).toEqual([{ from: `segments/${first}`, to: `segments/${renamed}` }]);
    expect(segments(dir, 'rollouts')).toEqual([renamed, ...rest].sort());
    expect(rest.map((f) => readFileSync(join(dir, 'segments', f)))).toEqual(restBefore);
    const inflated = gunzipSync(readFileSync(join(dir, 'segments', renamed))).toString('utf8');
    expect(inflated.split('\n').filter(Boolean)).toHaveLength(records - 1);
    expect(kept(dir, 'rollouts')).toEqual([
      expect.objectContaining({ file: `segments/${first}`, lineNo: 2, text: bad }),
    ]);
    // Every other record, in order; the store's count (from the names) agrees with what it reads.
    const reopened = openRunStore(dir, { onWarning: () => {} });
    expect(reopened.read<{ id: string }>('rollouts').map((t) => t.id)).toEqual(
      ids.filter((id) => id !== 's1/t1'),
    );
    expect(reopened.count('rollouts')).toBe(11);
    reopened.close();
  });

  it('a plain closed segment (compression "none"): the same, still plain', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 900, compression: 'none', onWarning: () => {} });
    for (let i = 0; i < 6; i++) store.append('rollouts', trajectory(`s1/t${i}`));
    store.close();
    const [first] = segments(dir, 'rollouts') as [string];
    const m = /^rollouts\.(\d{6})\.n(\d+)\.jsonl$/.exec(first) as RegExpExecArray;
    const path = join(dir, 'segments', first);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[0] = '{"id": 1}';
    writeFileSync(path, lines.join('\n'));
    const dropped = dropDamagedRecords(dir, { now: NOW });
    const renamed = `rollouts.${m[1]}.n${Number(m[2]) - 1}.jsonl`;
    expect(dropped.files).toEqual([{ from: `segments/${first}`, to: `segments/${renamed}` }]);
    expect(readFileSync(join(dir, 'segments', renamed), 'utf8')).toBe(lines.slice(1).join('\n'));
    expect(checkRunStreams(dir)).toEqual([]);
  });

  it('a segment that does not inflate is moved whole to damaged/segments/, byte for byte', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 900, onWarning: () => {} });
    for (let i = 0; i < 6; i++) store.append('rollouts', trajectory(`s1/t${i}`));
    store.close();
    const [first] = segments(dir, 'rollouts') as [string];
    const junk = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x01]);
    writeFileSync(join(dir, 'segments', first), junk);
    const dropped = dropDamagedRecords(dir, { now: NOW });
    expect(dropped.files).toEqual([{ from: `segments/${first}`, to: `damaged/segments/${first}` }]);
    expect(existsSync(join(dir, 'segments', first))).toBe(false);
    expect(readFileSync(join(dir, 'damaged', 'segments', first))).toEqual(junk);
    expect(kept(dir, 'rollouts')).toEqual([
      expect.objectContaining({ lineNo: 0, movedTo: `damaged/segments/${first}` }),
    ]);
    expect(checkRunStreams(dir)).toEqual([]);
  });

  it('bytes that are not UTF-8 are kept exactly (base64 beside the text)', () => {
    const dir = tempDir();
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    writeFileSync(join(dir, 'events.jsonl'), Buffer.concat([raw, Buffer.from('\n')]));
    dropDamagedRecords(dir, { now: NOW });
    const [entry] = kept(dir, 'events');
    expect(Buffer.from(entry?.base64 as string, 'base64')).toEqual(raw);
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe('');
  });

  it('a crash between renaming a segment and rewriting it: the next call finishes, one segment per number', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 900, onWarning: () => {} });
    for (let i = 0; i < 6; i++) store.append('rollouts', trajectory(`s1/t${i}`));
    store.close();
    const [first] = segments(dir, 'rollouts') as [string];
    const m = /^rollouts\.(\d{6})\.n(\d+)\.jsonl\.gz$/.exec(first) as RegExpExecArray;
    const path = join(dir, 'segments', first);
    const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
    lines[0] = 'garbage';
    // What the first call leaves when it stops after its rename: the new name, the old content.
    const renamed = `rollouts.${m[1]}.n${Number(m[2]) - 1}.jsonl.gz`;
    writeFileSync(path, gzipSync(lines.join('\n')));
    renameSync(path, join(dir, 'segments', renamed));
    expect(checkRunStreams(dir)).toEqual([
      expect.objectContaining({ file: `segments/${renamed}`, lineNo: 1 }),
    ]);
    const dropped = dropDamagedRecords(dir, { now: NOW });
    expect(dropped.files).toEqual([{ from: `segments/${renamed}`, to: `segments/${renamed}` }]);
    expect(segments(dir, 'rollouts').filter((f) => f.startsWith(`rollouts.${m[1]}.`))).toEqual([renamed]);
    expect(
      gunzipSync(readFileSync(join(dir, 'segments', renamed)))
        .toString('utf8')
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(Number(m[2]) - 1);
    expect(checkRunStreams(dir)).toEqual([]);
  });
});
