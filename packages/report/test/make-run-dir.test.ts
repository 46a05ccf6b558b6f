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

describe('the run-directory fixtures', () => {
  it('are the same bytes for the same seed and differ for another', () => {
    for (const [make, name] of [
      [makeEvolveRun, 'evolve'],
      [makeInternalizeRun, 'internalize'],
    ] as const) {
      make(join(root, `${name}-a`), {
        seed: 21,
        ...(name === 'internalize' ? { steps: 8 } : { generations: 2 }),
      });
      make(join(root, `${name}-b`), {
        seed: 21,
        ...(name === 'internalize' ? { steps: 8 } : { generations: 2 }),
      });
      make(join(root, `${name}-c`), {
        seed: 22,
        ...(name === 'internalize' ? { steps: 8 } : { generations: 2 }),
      });
      for (const file of ['events.jsonl', 'rollouts.jsonl']) {
        const a = readFileSync(join(root, `${name}-a`, file), 'utf8');
        expect(readFileSync(join(root, `${name}-b`, file), 'utf8')).toBe(a);
        expect(readFileSync(join(root, `${name}-c`, file), 'utf8')).not.toBe(a);
      }
    }
  });

  it("write events and trajectories that pass core's JSON Schemas", () => {
    for (const name of ['evolve-a', 'internalize-a']) {
      const events = lines<RunEvent>(join(root, name, 'events.jsonl'));
      const trajectories = lines<Trajectory>(join(root, name, 'rollouts.jsonl'));
      expect(events.flatMap((e) => checkSchema('event', e))).toEqual([]);
      expect(trajectories.flatMap((t) => checkSchema('trajectory', t))).toEqual([]);
      expect(events.filter((e) => e.type === 'rollout')).toHaveLength(trajectories.length);
    }
  });

  it('show learning: later reward and skill-free success are higher than the first', () => {
    makeEvolveRun(join(root, 'evolve-long'), { seed: 5 });
    const gens = lines<RunEvent>(join(root, 'evolve-long', 'events.jsonl')).filter(
      (e) => e.type === 'generation',
    );
    const meanAt = (g: number) => {
      const xs = gens.filter((e) => e.generation === g).map((e) => e.meanReward);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(meanAt(4)).toBeGreaterThan(meanAt(0) + 0.2);
    makeInternalizeRun(join(root, 'internalize-long'), { seed: 5 });
    const vals = lines<RunEvent>(join(root, 'internalize-long', 'events.jsonl')).filter(
      (e) => e.type === 'validation',
    );
    const without = (i: number) => {
      const v = vals[i];
      if (v?.type !== 'validation') throw new Error('expected a validation event');
      const xs = Object.values(v.validation.families).map((f) => f.withoutSkill);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(without(vals.length - 1)).toBeGreaterThan(without(0) + 0.3);
  });
});
