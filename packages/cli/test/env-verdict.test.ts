import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, tempDir, writeConfig } from './support.js';

// What breaks real runs while a run "completes": an environment that reports wins its verifier scores 0
// (the built CLI warns, and summary.json says it), and the adapter scaffold's own test, which plays its
// solution through the conformance kit.

const PICK = resolve(__dirname, 'fixtures/env-verdict-adapter.mjs');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function skillrl(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...(cwd ? { cwd } : {}) });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function project(name: string): string {
  const dir = tempDir(name);
  made.push(dir);
  return dir;
}

const agent = { package: PICK, export: 'createPickingAgent' };

/** A short run of `method` over the pick adapter `adapterExport` names, with the random picking agent. */
function runOf(method: 'internalize' | 'evolve', adapterExport: string) {
  const section =
    method === 'internalize'
      ? {
          internalize: {
            variant: 'grpo',
            steps: 1,
            tasksPerStep: 3,
            groupSize: 2,
            validateEvery: 1,
            validation: { split: 'test', limit: 3 },
            trainer: 'external',
          },
        }
      : { evolve: { variant: 'no-skill', episodes: 3 } };
  return {
    method,
    seed: 3,
    name: 'pick',
    adapter: { package: PICK, export: adapterExport },
    tasks: { split: 'train', limit: 6 },
    agent,
    concurrency: 2,
    ...section,
  };
}

function summaryOf(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, 'runs', 'pick', 'summary.json'), 'utf8')) as Record<
    string,
    unknown
  >;
}

const WARNING =
  /^warning: (\d+) of the (\d+) episodes the environment reported won were scored 0 by the verifier/m;

describe('skillrl run: wins the environment reports that the verifier scores 0', () => {
  for (const method of ['internalize', 'evolve'] as const) {
    const config = (adapterExport: string) => runOf(method, adapterExport);
    it(`${method}: warned on stderr and in summary.json's envVerdictMismatch; a right verifier has neither`, () => {
      const broken = project(`env-verdict-${method}`);
      const run = skillrl(['run', writeConfig(broken, config('createRewardReadingPickAdapter'))]);
      // The run completes: nothing failed, every won episode was just scored 0.
      expect(run.code, run.err).toBe(0);
      const warned = WARNING.exec(run.err);
      expect(warned, run.err).not.toBeNull();
      const summary = summaryOf(broken);
      const mismatch = summary.envVerdictMismatch as { episodes: number; wonByEnv: number; message: string };
      expect(mismatch.episodes).toBeGreaterThan(0);
      // Every episode the environment won was scored 0 (the verifier reads trajectory.reward).
      expect(mismatch.wonByEnv).toBe(mismatch.episodes);
      expect([Number(warned?.[1]), Number(warned?.[2])]).toEqual([mismatch.episodes, mismatch.wonByEnv]);
      expect(run.err).toContain(`warning: ${mismatch.message}`);
      expect(mismatch.message).toContain('trajectory.steps.at(-1)?.info?.env');
      expect(mismatch.message).toContain('trajectory.reward is 0 until the verdict sets it');

      const right = project(`env-verdict-${method}-right`);
      const ok = skillrl(['run', writeConfig(right, config('createPickAdapter'))]);
      expect(ok.code, ok.err).toBe(0);
      expect(ok.err).not.toMatch(WARNING);
      expect(summaryOf(right)).not.toHaveProperty('envVerdictMismatch');
    });
  }
});

describe('skillrl init adapter: the scaffold passes its solution to the kit', () => {
  it('its test passes solve, and passes: the kit plays the solution and checks the verdict against the environment', () => {
    const dir = project('init-adapter-solve');
    const target = join(dir, 'my-adapter');
    const init = skillrl(['init', 'adapter', target]);
    expect(init.code, init.err).toBe(0);
    const test = readFileSync(join(target, 'src/adapter.test.ts'), 'utf8');
    expect(test).toMatch(/describeAdapterConformance\(adapter, \{[^}]*solve: \(task\) =>/);
    // The workspace's packages, as npm would install the scaffold's dependencies.
    symlinkSync(resolve(__dirname, '../node_modules'), join(target, 'node_modules'), 'dir');
    const vitest = resolve(__dirname, '../node_modules/vitest/vitest.mjs');
    const r = spawnSync(process.execPath, [vitest, 'run', '--reporter=verbose'], {
      cwd: target,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${r.stdout}\n${r.stderr}`;
    expect(r.status, output).toBe(0);
    for (const check of [
      'passes the episodes its own solution plays',
      'plays its solution from admissibleActions() alone',
      'scores no episode 0 that the environment reports won',
      'judges the trajectory it is given',
    ]) {
      expect(output).toContain(check);
    }
    expect(output).not.toMatch(/\bskipped\b|↓/);
    expect(existsSync(join(target, 'node_modules'))).toBe(true);
  });
});
