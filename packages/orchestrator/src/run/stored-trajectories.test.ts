import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunStore } from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { StoredTrajectories, trajectoryIdOf } from './stored-trajectories.js';

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

describe('StoredTrajectories', () => {
  it('reads trajectories back by id across gzip segments and the open file; the last record of an id wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-stored-'));
    dirs.push(dir);
    const store = openRunStore(dir, { segmentBytes: 4096 });
    for (let i = 0; i < 60; i++) store.append('rollouts', trajectory(`s1/t:${i}`));
    store.append('rollouts', trajectory('s1/t:3', 1));
    const stored = new StoredTrajectories(dir);
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
    expect(trajectoryIdOf(line)).toBe('v0/household/a:c1:i0');
    expect(trajectoryIdOf(JSON.stringify({ id: 'with "quote"', x: 1 }))).toBe('with "quote"');
    expect(trajectoryIdOf(JSON.stringify({ x: 1, id: 'later' }))).toBe('later');
    expect(trajectoryIdOf('{"x":1}')).toBeUndefined();
    expect(trajectoryIdOf('not json')).toBeUndefined();
  });
});
