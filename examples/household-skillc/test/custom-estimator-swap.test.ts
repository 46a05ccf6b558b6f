import { join, resolve } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanTestRuns, missingRunFiles, readJson, readJsonl, skillrl, TEST_RUNS } from './run-example.js';

// The config that swaps examples/custom-estimator's package in lives in that example; its test runs here
// because that package cannot depend on the orchestrator (the orchestrator's own tests depend on it, and
// turbo refuses a dependency cycle). The config is run exactly as shipped.
const CONFIG = resolve(__dirname, '../../custom-estimator/run.yaml');

afterAll(() => cleanTestRuns(['centered-rank']));

describe('examples/custom-estimator/run.yaml: a custom estimator package swapped in by config', () => {
  it('skillrl run loads the package by name and trains with its centred-rank advantages', async () => {
    const run = await skillrl(['run', CONFIG, '--run-dir', join(TEST_RUNS, 'centered-rank')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;
    expect(missingRunFiles(dir)).toEqual([]);
    const manifest = readJson<{ components: Record<string, string> }>(join(dir, 'run.json'));
    expect(manifest.components.estimator).toBe('package:@skillrl/example-custom-estimator#centered-rank');

    // Planned: 3 steps × 3 tasks × 8, and two paired validations (step 0, before any update, and the last)
    // of 6 tasks × 2 conditions.
    const rollouts = readJsonl<Trajectory>(join(dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(96);
    expect(metrics.rollouts).toBe(96);
    const byId = new Map(rollouts.map((t) => [t.id, t]));

    // Centred ranks of binary rewards, by hand: in a group of n = 8 with k successes the failures share
    // mean rank (n − k − 1)/2 and the successes (n − k) + (k − 1)/2, so with A = (rank − (n − 1)/2)/(n − 1)
    // a failure gets −k/14 and a success (8 − k)/14 (k = 1: −0.0714 and 0.5); k = 0 or 8 gives 0.
    const records = readJsonl<{ rows: { trajectoryId: string; advantage: number }[] }>(
      join(dir, 'advantages.jsonl'),
    );
    expect(records).toHaveLength(3);
    let informative = 0;
    for (const record of records) {
      const groups = new Map<string, { reward: number; advantage: number }[]>();
      for (const row of record.rows) {
        const t = byId.get(row.trajectoryId) as Trajectory;
        groups.set(t.taskId, [
          ...(groups.get(t.taskId) ?? []),
          { reward: t.reward, advantage: row.advantage },
        ]);
      }
      expect(groups.size).toBe(3);
      for (const group of groups.values()) {
        expect(group).toHaveLength(8);
        const k = group.filter((g) => g.reward === 1).length;
        if (k > 0 && k < 8) informative++;
        for (const g of group) {
          expect([0, 1]).toContain(g.reward);
          const expected = k === 0 || k === 8 ? 0 : g.reward === 1 ? (8 - k) / 14 : -k / 14;
          expect(g.advantage).toBeCloseTo(expected, 12);
        }
      }
    }
    // Seed 3 gives groups with both outcomes, so the check above is not only about zeros.
    expect(informative).toBeGreaterThan(0);
  });
});
