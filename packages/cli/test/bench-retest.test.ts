import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, startCli, tempDir, writeConfig } from './support.js';

// bench/retest.mjs (issue 38): re-tests each finished run's trained policy on its own test tasks at other
// sampling settings, and with --checkpoints every kept checkpoint and the mean of their weights. Here on a
// real (tiny) internalize run of the skill-reading tfjs agent, laid out as bench:paper names its runs.

const RETEST = resolve(__dirname, '../bench/retest.mjs');
const NAME = 'skillc-published-grpo-no-skills-seed3';

function tinyRun() {
  return {
    method: 'internalize',
    seed: 3,
    name: NAME,
    adapter: 'household',
    tasks: { split: 'train', limit: 12 },
    agent: 'skill-reading',
    concurrency: 4,
    health: { voidUnits: 0 },
    store: { keepCheckpoints: 20 },
    internalize: {
      variant: 'grpo',
      steps: 20,
      tasksPerStep: 2,
      groupSize: 4,
      validateEvery: 10,
      validation: { split: 'valid_seen', limit: 4 },
      test: { split: 'valid_unseen', limit: 12 },
      trainer: { name: 'tfjs', options: { lr: 0.05 } },
    },
  };
}

const retest = (out: string, ...args: string[]) =>
  spawnSync(process.execPath, [RETEST, '--out', out, ...args], { encoding: 'utf8' });

describe('bench/retest.mjs', () => {
  it('re-tests the last checkpoint per sampling setting, every kept checkpoint, and reuses what it measured', async () => {
    const out = tempDir('retest');
    const run = await finish(
      startCli(['run', writeConfig(out, tinyRun(), 'config.json'), '--run-dir', join(out, NAME), '--json']),
    );
    expect(run.code, run.err).toBe(0);

    const first = retest(out, '--sampling', '1,greedy', '--checkpoints');
    expect(first.status, first.stderr).toBe(0);
    const kept = JSON.parse(readFileSync(join(out, 'diagnostics', `retest-${NAME}.json`), 'utf8'));
    expect(Object.keys(kept.scores)).toEqual(['1', 'greedy']);
    for (const score of Object.values(kept.scores)) expect(score).toBeGreaterThanOrEqual(0);
    // Every kept checkpoint on a multiple of 10 steps (keepCheckpoints 20 keeps steps 1–20), at the first setting.
    expect(kept.checkpoints.setting).toBe('1');
    expect(Object.keys(kept.checkpoints.byStep)).toEqual(['10', '20']);
    expect(kept.checkpoints.averaged).toMatchObject({ from: 1, to: 20 });
    // The last checkpoint tested at temperature 1 is the same policy on the same episodes as the `1` column.
    expect(kept.checkpoints.byStep['20']).toBe(kept.scores['1']);
    expect(first.stdout).toMatch(
      /\| grpo-no-skills \| 3 \| 10: \d+\.\d, 20: \d+\.\d \| \d+\.\d \| \d+\.\d \| \d+\.\d \(1–20\) \|/,
    );
    expect(readFileSync(join(out, 'retest-published.md'), 'utf8')).toBe(first.stdout);

    // The same request again measures nothing (the same table, no "retested" line); measured afresh, every
    // episode is seeded from the run's seed, the setting and the task, so the table is the same again.
    const again = retest(out, '--sampling', '1,greedy', '--checkpoints');
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).not.toContain('retested');
    rmSync(join(out, 'diagnostics', `retest-${NAME}.json`));
    const afresh = retest(out, '--sampling', '1,greedy', '--checkpoints');
    expect(afresh.stderr).toContain(`retested ${NAME}`);
    expect(afresh.stdout).toBe(first.stdout);
  }, 120_000);

  it('refuses a sampling setting it cannot use, naming the option and the fix', () => {
    const out = tempDir('retest-bad');
    const bad = retest(out, '--sampling', '1,cold');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--sampling: "cold" is neither a temperature > 0 nor "greedy"');
  });
});
