import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSchema, type RunEvent, type Trajectory } from '@skillrl/core';
import { afterAll, describe, expect, it } from 'vitest';
import { makeEvolveRun, makeInternalizeRun } from './make-run-dir.js';

const root = mkdtempSync(join(tmpdir(), 'skillrl-report-fixture-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

// The report's tests read these fixtures instead of real runs (the report sits below the orchestrator): what
// is checked here is that they are what a real run writes, by the schemas every run's files pass — not the
// fixtures' own behaviour.
describe('the run-directory fixtures', () => {
  it("write events and trajectories that pass core's JSON Schemas", () => {
    makeEvolveRun(join(root, 'evolve-a'), { seed: 21, generations: 2 });
    makeInternalizeRun(join(root, 'internalize-a'), { seed: 21, steps: 8 });
    for (const name of ['evolve-a', 'internalize-a']) {
      const events = lines<RunEvent>(join(root, name, 'events.jsonl'));
      const trajectories = lines<Trajectory>(join(root, name, 'rollouts.jsonl'));
      expect(events.flatMap((e) => checkSchema('event', e))).toEqual([]);
      expect(trajectories.flatMap((t) => checkSchema('trajectory', t))).toEqual([]);
      expect(events.filter((e) => e.type === 'rollout')).toHaveLength(trajectories.length);
    }
  });
});
