import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunEvent, readRunStream, type Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { internalize } from '../src/internalize/internalize.js';
import { internalizeConfig, tempDir, writeConfig } from './support.js';

// The offline SKILLC setup a user runs: the skill-reading tfjs policy trained in-process by the tfjs trainer.
describe('internalize with @skillrl/policy-tfjs', () => {
  it('trains the skill-reading agent and saves its weights at every checkpoint', async () => {
    const dir = tempDir('tfjs');
    const config = internalizeConfig(
      { name: 'tfjs', agent: 'skill-reading', maxSteps: 30 },
      {
        steps: 2,
        tasksPerStep: 2,
        groupSize: 4,
        validateEvery: 2,
        validation: { split: 'valid_seen', limit: 3 },
        trainer: { name: 'tfjs', options: { lr: 0.01 } },
      },
    );
    const configPath = writeConfig(dir, config);
    const result = await internalize(config as never, { configPath });
    // 2 steps × 2 tasks × 4 + two validations (step 0 and the last) × 3 tasks × 2 conditions
    expect(result.metrics.rollouts).toBe(28);
    // Either layout: a stream of 1 MiB or more is gzipped into segments/ when the run closes.
    const rollouts = [...readRunStream<Trajectory>(result.dir, 'rollouts')];
    expect(rollouts).toHaveLength(28);
    // The policy's own log-probs are recorded on every action it took.
    expect(rollouts.every((t) => t.steps.every((s) => typeof s.logProb === 'number'))).toBe(true);
    const snapshot = JSON.parse(
      readFileSync(join(result.dir, 'checkpoints', 'snapshot-00000001.json'), 'utf8'),
    );
    expect(snapshot.value.components.agent).toEqual({ kind: 'dir', path: 'checkpoints/state-000002/agent' });
    const step = [...readRunStream<RunEvent>(result.dir, 'events')].find((e) => e.type === 'step') as
      | { metrics: Record<string, number> }
      | undefined;
    expect(Object.keys(step?.metrics ?? {}).some((k) => k.startsWith('train_'))).toBe(true);
  }, 120_000);
});
