import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastRunEnd } from './last-run-end.js';
import { openRunStore } from './open-run-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('lastRunEnd', () => {
  it('is the last run:end of the events, across segments; undefined while a run has not ended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-run-end-'));
    dirs.push(dir);
    // Small segments, so the first run:end lies in a closed gzip segment and the last in the open file.
    const store = openRunStore(dir, { segmentBytes: 200 });
    const at = (type: string, extra: object = {}) => ({
      runId: 'r',
      time: '2025-01-01T00:00:00Z',
      type,
      ...extra,
    });
    store.append('events', at('run:start'));
    expect(lastRunEnd(dir)).toBeUndefined();
    store.append('events', at('run:end', { status: 'failed', error: 'endpoint down' }));
    for (let i = 0; i < 8; i++) store.append('events', at('step', { step: i, metrics: {} }));
    expect(lastRunEnd(dir)).toMatchObject({ status: 'failed', error: 'endpoint down' });
    store.append('events', at('run:end', { status: 'completed' }));
    store.close();
    expect(readdirSync(join(dir, 'segments')).some((f) => f.startsWith('events.'))).toBe(true);
    expect(lastRunEnd(dir)).toMatchObject({ type: 'run:end', status: 'completed' });
  });
});
