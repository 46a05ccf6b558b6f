import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeAdapterConformance } from './describe-adapter-conformance.js';
import { walkAdapter } from './sample-adapters/tiny-adapters.js';

describeAdapterConformance(walkAdapter, { limit: 4, episodes: 4 });

describe('describeAdapterConformance on a broken adapter', () => {
  it('fails the checks the adapter breaks, in a real vitest run', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
    const run = spawnSync(
      process.execPath,
      [vitest, 'run', '--config', 'src/adapter-conformance/sample-adapters/vitest.fixture.config.ts'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    const start = run.stdout.indexOf('{');
    expect(start).toBeGreaterThanOrEqual(0);
    const report = JSON.parse(run.stdout.slice(start)) as {
      numFailedTests: number;
      numPassedTests: number;
      testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
    };
    const status = new Map(
      report.testResults.flatMap((f) => f.assertionResults.map((a) => [a.title, a.status])),
    );
    expect(run.status).toBe(1);
    // Names and families are fine; everything else this adapter does is wrong.
    expect(status.get('has a name and distinct, non-empty families')).toBe('passed');
    expect(status.get('loads valid tasks with unique ids, this split and a declared family')).toBe('failed');
    expect(status.get('is deterministic by seed')).toBe('failed');
    expect(
      status.get('plays episodes through reset/step within maxSteps, and the verifier judges them in [0, 1]'),
    ).toBe('failed');
    expect(
      status.get('ships skills that are valid SKILL.md and round-trip through formatSkill/parseSkill'),
    ).toBe('failed');
    expect(report.numFailedTests).toBe(4);
  });
});
