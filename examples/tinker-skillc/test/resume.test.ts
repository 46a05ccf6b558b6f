import { join } from 'node:path';
import { type FakeTinkerServer, startFakeTinker } from '@skillrl/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { againstFake } from './configs.js';
import {
  cleanTestRuns,
  killAndResume,
  latestPolicyState,
  readJson,
  readJsonl,
  skillrl,
  TEST_RUNS,
  writeTestConfig,
} from './run-example.js';

// SIGKILL of a real `skillrl` child process at chosen requests to the fake Tinker server (the server still
// carries out the request that arrived as the process died: the worst case for applying an update twice),
// then `skillrl resume`, until the run completes; against an uninterrupted run of the same config.

const servers: FakeTinkerServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => cleanTestRuns(['resume-whole', 'resume-killed']));

const small = (url: string, name: string) =>
  againstFake(url, {
    name,
    internalize: {
      ...(againstFake(url).internalize as object),
      steps: 4,
      tasksPerStep: 3,
      groupSize: 4,
      validateEvery: 2,
      validationEpisodes: 1,
      validation: { split: 'valid', limit: 6 },
    },
  });

interface Rollout {
  id: string;
  reward: number;
  steps: { action: string; tokenIds?: number[] }[];
}

function byId(dir: string) {
  const out = new Map<string, { reward: number; actions: string[]; tokens: (number[] | undefined)[] }>();
  for (const r of readJsonl<Rollout>(join(dir, 'rollouts.jsonl'))) {
    out.set(r.id, {
      reward: r.reward,
      actions: r.steps.map((s) => s.action),
      tokens: r.steps.map((s) => s.tokenIds),
    });
  }
  return out;
}

describe('examples/tinker-skillc: resume after SIGKILL', () => {
  it('gives the same updates as an uninterrupted run, killed before the first checkpoint, between an update and its checkpoint, and mid-rollouts', async () => {
    const whole = await startFakeTinker({ seed: 3 });
    servers.push(whole);
    const wholeRun = await skillrl([
      'run',
      writeTestConfig('resume-whole', small(whole.url, 'resume-whole')),
      '--run-dir',
      join(TEST_RUNS, 'resume-whole'),
    ]);
    expect(wholeRun.code, wholeRun.err.join('\n')).toBe(0);
    const wholeDir = wholeRun.result.dir;
    const wholeState = latestPolicyState(wholeDir, 'agent');
    const wholeLineage = whole.lineageOf(wholeState.samplerPath) as string[];
    expect(wholeLineage).toHaveLength(4);

    // Kill points, one per process: [route, nth request of that route since the process started].
    const kills = killAndResume([
      ['forward_backward', 1], // step 1's gradients accumulated, no optimizer step, no checkpoint yet
      ['save_weights', 2], // step 2's optim_step applied and its state saving, the run's checkpoint still at step 1
      ['asample', 5], // the rollouts of the step after the checkpoint, partly on disk
    ]);
    const killed = await startFakeTinker({ seed: 3, faults: { plan: kills.plan } });
    servers.push(killed);
    const path = writeTestConfig('resume-killed', small(killed.url, 'resume-killed'));
    const dir = join(TEST_RUNS, 'resume-killed');
    const { signals, last } = await kills.run(path, dir);
    expect(last.code, last.err).toBe(0);
    expect(signals).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL', null]);

    // The same rollouts, advantages and summary as the uninterrupted run.
    expect(byId(dir)).toEqual(byId(wholeDir));
    const rows = (d: string) =>
      readJsonl<{ key: string; rows: unknown[] }>(join(d, 'advantages.jsonl')).map((r) => [r.key, r.rows]);
    expect(rows(dir)).toEqual(rows(wholeDir));
    expect(readJson<{ metrics: unknown }>(join(dir, 'summary.json')).metrics).toEqual(
      readJson<{ metrics: unknown }>(join(wholeDir, 'summary.json')).metrics,
    );
    // The same sequence of updates produced the final weights: each once, in order.
    const state = latestPolicyState(dir, 'agent');
    expect(state.updates).toBe(4);
    expect(killed.lineageOf(state.samplerPath)).toEqual(wholeLineage);
    expect(killed.lineageOf(state.statePath)).toEqual(wholeLineage);
    // Each resume continued in a new training run that loaded the checkpointed state (Adam's moments too).
    const runs = killed.trainingRuns();
    expect(state.trainingRuns.length).toBeGreaterThan(1);
    for (const id of state.trainingRuns.slice(1)) {
      const run = runs.find((r) => r.id === id);
      expect(run?.loads.every((l) => l.optimizer && l.path.includes('/weights/'))).toBe(true);
    }
    // The update interrupted between its optim_step and the run's checkpoint was applied in a run that was
    // abandoned; the resumed lineage does not contain it twice.
    expect(new Set(killed.lineageOf(state.samplerPath)).size).toBe(4);
    expect(runs.reduce((n, r) => n + r.updates.length, 0)).toBeGreaterThan(4);
  });
});
