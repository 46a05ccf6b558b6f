import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunStore } from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readRunDir } from './read-run-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-report-read-'));
  dirs.push(dir);
  return dir;
};

const rollout = (i: number, extra: Record<string, unknown> = {}) => ({
  type: 'rollout',
  runId: 'r',
  time: '2026-01-01T00:00:00.000Z',
  trajectoryId: `s1/t:${i}`,
  taskId: `t${i % 3}`,
  family: i % 2 ? 'heat' : 'cool',
  condition: (i % 2) as 0 | 1,
  reward: 1,
  passed: true,
  ...extra,
});

describe('readRunDir', () => {
  it('reads events rotated into gzip segments, and counts a rollout run again on resume once, as it ended', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 2048 });
    store.append('events', {
      type: 'run:start',
      runId: 'r',
      time: '2026-01-01T00:00:00.000Z',
      method: 'internalize:skillc',
      seed: 1,
    });
    for (let i = 0; i < 40; i++) {
      store.append('events', rollout(i, i < 5 ? { reward: 0, passed: false, error: 'model' } : {}));
    }
    // A resume ran the five failed ones again.
    for (let i = 0; i < 5; i++) store.append('events', rollout(i));
    store.append('events', {
      type: 'run:end',
      runId: 'r',
      time: '2026-01-01T00:01:00.000Z',
      status: 'completed',
    });
    store.close();
    expect(readdirSync(join(dir, 'segments')).length).toBeGreaterThan(2);
    const data = readRunDir(dir);
    const rollouts = data.events.filter((e) => e.type === 'rollout');
    expect(rollouts).toHaveLength(40);
    expect(rollouts.every((e) => e.type === 'rollout' && e.passed && e.error === undefined)).toBe(true);
    expect(data.events.at(-1)).toMatchObject({ type: 'run:end', status: 'completed' });
    expect(data.notes).toEqual([]);
  });

  it('counts from trajectories (without their steps) when the events carry no rollouts, in either layout', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 1024 });
    for (let i = 0; i < 12; i++) {
      store.append('rollouts', {
        id: `v0/t:${i}`,
        taskId: 't',
        family: 'heat',
        condition: 1,
        steps: [{ index: 0, observation: 'o'.repeat(200), action: 'look', reward: 0, done: false }],
        reward: 0,
        verdict: { score: 0, passed: false },
      });
    }
    store.close();
    appendFileSync(join(dir, 'rollouts.jsonl'), '{"id":"v0/half');
    const data = readRunDir(dir);
    expect(data.hasRolloutsFile).toBe(true);
    expect(data.rollouts).toHaveLength(12);
    expect(data.rollouts.every((t) => t.steps.length === 0 && t.family === 'heat')).toBe(true);
    expect(data.notes.some((n) => n.startsWith('rollouts.jsonl: the last line is unfinished'))).toBe(true);
  });

  it('reads each trajectory as its latest record: a re-run replaces the errored record before it', () => {
    const dir = tempDir();
    const store = openRunStore(dir, { segmentBytes: 1024 });
    const trajectory = (id: string, passed: boolean, error?: { code: string; message: string }) => ({
      id,
      taskId: 't',
      family: 'heat',
      condition: 1,
      steps: [{ index: 0, observation: 'o'.repeat(300), action: 'look', reward: 0, done: false }],
      reward: passed ? 1 : 0,
      verdict: { score: passed ? 1 : 0, passed },
      ...(error ? { error } : {}),
    });
    const failed = { code: 'model', message: 'HTTP 503' };
    store.append('rollouts', trajectory('s1/a', false, failed));
    store.append('rollouts', trajectory('s1/b', false, failed));
    for (let i = 0; i < 6; i++) store.append('rollouts', trajectory(`s1/x${i}`, true));
    // The resume ran s1/a again (into a later segment); s1/b was never run again.
    store.append('rollouts', trajectory('s1/a', true));
    store.close();
    const data = readRunDir(dir);
    expect(data.rollouts.map((t) => t.id).sort()).toEqual(
      ['s1/a', 's1/b', ...Array.from({ length: 6 }, (_, i) => `s1/x${i}`)].sort(),
    );
    expect(data.rollouts.find((t) => t.id === 's1/a')).toMatchObject({ verdict: { passed: true } });
    expect(data.rollouts.find((t) => t.id === 's1/a')?.error).toBeUndefined();
    expect(data.rollouts.find((t) => t.id === 's1/b')?.error).toEqual(failed);
  });
});
