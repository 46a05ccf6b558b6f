import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRunStreams, formatDamagedRecord } from './check-run-streams.js';
import { openRunStore } from './open-run-store.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-check-streams-'));
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
const runStart = {
  type: 'run:start',
  runId: 'r',
  time: '2026-01-02T03:04:05.000Z',
  method: 'evolve',
  seed: 1,
};
const { steps: _steps, ...withoutSteps } = trajectory('s1/x');

/** A run directory as a run writes it: every stream a record or more, nothing damaged. */
function cleanRun(dir: string, segmentBytes?: number) {
  const store = openRunStore(dir, { onWarning: () => {}, ...(segmentBytes ? { segmentBytes } : {}) });
  store.append('events', runStart);
  for (let i = 0; i < 6; i++) store.append('rollouts', trajectory(`s1/t${i}`));
  store.append('advantages', {
    key: 's1',
    unit: 's1',
    rows: [
      { trajectoryId: 's1/t0', advantage: 0.5 },
      // An estimator's NaN is written as null.
      { trajectoryId: 's1/t1', advantage: null },
    ],
  });
  store.append('advantages', {
    key: 'g1',
    unit: 'g1',
    rows: [{ taskId: 'task-1', candidate: 0, reward: 1, advantage: -0.5, fallback: true }],
  });
  store.append('units', { key: 's1', unit: 's1', rollouts: 6, errored: 0, rerun: 0 });
  store.append('candidates', {
    key: 'g1/task-1',
    taskId: 'task-1',
    generation: 1,
    candidates: [{ skill: { name: 'a', description: 'b', body: 'c' }, text: '…' }],
    attempts: [],
  });
  store.append('rejections', { key: 'g1/task-1/0', unit: 'g1', generation: 1, taskId: 'task-1', attempt: 0 });
  store.append('overrides', { time: runStart.time, set: [{ path: 'concurrency', value: 2 }] });
  store.append('notes', { anything: ['a stream of your own is only required to be JSON'] });
  store.close();
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n');

describe('checkRunStreams', () => {
  it('finds nothing in a run directory whose every record is what its readers read', () => {
    const dir = tempDir();
    cleanRun(dir);
    expect(checkRunStreams(dir)).toEqual([]);
  });

  it('names the stream, file, line and reason of each damaged record of a plain file', () => {
    const dir = tempDir();
    cleanRun(dir);
    const rollouts = lines(join(dir, 'rollouts.jsonl'));
    rollouts[2] = JSON.stringify(withoutSteps);
    writeFileSync(join(dir, 'rollouts.jsonl'), rollouts.join('\n'));
    // A line an editor left in the middle of events, and a blank line (skipped, as every reader skips it).
    writeFileSync(
      join(dir, 'events.jsonl'),
      `${readFileSync(join(dir, 'events.jsonl'), 'utf8')}\n<<<<<<< HEAD\n${JSON.stringify(runStart)}\n`,
    );
    const found = checkRunStreams(dir);
    expect(found).toEqual([
      {
        stream: 'events',
        file: 'events.jsonl',
        lineNo: 3,
        reason: expect.stringMatching(/^not valid JSON \(/),
      },
      {
        stream: 'rollouts',
        file: 'rollouts.jsonl',
        lineNo: 3,
        reason: 'not a valid trajectory: $.steps: is required but missing',
      },
    ]);
    expect(formatDamagedRecord(found[1] as (typeof found)[number])).toBe(
      'rollouts.jsonl:3: not a valid trajectory: $.steps: is required but missing',
    );
  });

  it('a torn last line is not damage (the store drops it on opening); one that ends with a newline is', () => {
    const dir = tempDir();
    cleanRun(dir);
    appendFileSync(join(dir, 'rollouts.jsonl'), '{"id":"s1/t9","taskId":"ta');
    expect(checkRunStreams(dir)).toEqual([]);
    appendFileSync(join(dir, 'rollouts.jsonl'), '\n');
    expect(checkRunStreams(dir)).toEqual([
      expect.objectContaining({
        file: 'rollouts.jsonl',
        lineNo: 7,
        reason: expect.stringMatching(/^not valid JSON/),
      }),
    ]);
  });

  it('checks the records each stream of the orchestrator is read by', () => {
    const dir = tempDir();
    cleanRun(dir);
    const put = (stream: string, record: unknown) =>
      appendFileSync(join(dir, `${stream}.jsonl`), `${JSON.stringify(record)}\n`);
    put('advantages', { key: 's2', unit: 's2', rows: [{ advantage: 1 }] });
    put('advantages', { key: 's3', unit: 's3', rows: [{ trajectoryId: 's3/a', advantage: '1' }] });
    put('advantages', {
      key: 's4',
      unit: 's4',
      rows: [{ trajectoryId: 's4/a', advantage: 1, stepAdvantages: [0.5, null] }],
    });
    put('advantages', {
      key: 's5',
      unit: 's5',
      rows: [{ trajectoryId: 's5/a', advantage: 1, stepAdvantages: [0.5, -1] }],
    });
    put('units', { key: 's2', unit: 's2', rollouts: 4, errored: 0 });
    put('candidates', {
      key: 'g2/task-1',
      taskId: 'task-1',
      generation: 2,
      candidates: [{ text: 'no skill' }],
    });
    put('rejections', { key: 'g2/task-1/0', unit: 'g2', taskId: 'task-1' });
    put('overrides', { time: runStart.time });
    put('events', { type: 'rollout', runId: 'r', time: runStart.time, trajectoryId: 'x' });
    put('rollouts', 42);
    put('notes', { still: 'fine' });
    const reasons = Object.fromEntries(
      checkRunStreams(dir).map((d) => [`${d.stream}:${d.lineNo}`, d.reason]),
    );
    expect(reasons).toEqual({
      'advantages:3': expect.stringMatching(/^not a valid advantages record: \$\.rows\[0\]/),
      'advantages:4': 'not a valid advantages record: $.rows[0].advantage: expected number or null',
      'advantages:5': 'not a valid advantages record: $.rows[0].stepAdvantages[1]: expected number',
      'units:2': 'not a valid units record: $.rerun: is required but missing',
      'candidates:2': 'not a valid candidates record: $.candidates[0].skill: is required but missing',
      'rejections:2': 'not a valid rejections record: $.attempt: is required but missing',
      'overrides:2': 'not a valid overrides record: $.set: is required but missing',
      'events:2': expect.stringMatching(
        /^not a valid run event: \$\.taskId: is required but missing; .* \(and \d+ more\)$/,
      ),
      'rollouts:7': 'not a valid trajectory: $: expected object',
    });
  });

  it('reads gzip segments: the line is counted in the inflated text, and a segment that does not inflate is named whole', () => {
    const dir = tempDir();
    cleanRun(dir, 600);
    const segments = readdirSync(join(dir, 'segments'))
      .filter((f) => f.startsWith('rollouts.'))
      .sort();
    expect(segments.length).toBeGreaterThan(1);
    const [first, second] = segments as [string, string];
    const path = join(dir, 'segments', first);
    const text = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
    expect(text.length).toBeGreaterThan(2);
    text[1] = JSON.stringify({ ...trajectory('s1/t1'), reward: 'high' });
    writeFileSync(path, gzipSync(text.join('\n')));
    writeFileSync(join(dir, 'segments', second), 'not gzip at all');
    expect(checkRunStreams(dir)).toEqual([
      {
        stream: 'rollouts',
        file: `segments/${first}`,
        lineNo: 2,
        reason: 'not a valid trajectory: $.reward: expected number',
      },
      {
        stream: 'rollouts',
        file: `segments/${second}`,
        lineNo: 0,
        reason: expect.stringMatching(/^the segment cannot be inflated \(/),
      },
    ]);
  });

  it('refuses a path that is not a directory, naming it', () => {
    const dir = tempDir();
    expect(() => checkRunStreams(join(dir, 'missing'))).toThrow(/missing is not a directory/);
  });
});
