import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeAdapterConformance } from './describe-adapter-conformance.js';
import { solveWalk, walkAdapter } from './sample-adapters/tiny-adapters.js';

describeAdapterConformance(walkAdapter, { limit: 4, episodes: 4, solve: solveWalk });

interface FixtureReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: Array<{ assertionResults: Array<{ title: string; fullName: string; status: string }> }>;
}

/** Runs one sample adapters' fixture file in a real vitest run; returns its exit status and JSON report. */
function runFixture(file: string): { status: number | null; report: FixtureReport } {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
  const run = spawnSync(
    process.execPath,
    [vitest, 'run', '--config', 'src/adapter-conformance/sample-adapters/vitest.fixture.config.ts', file],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  );
  const start = run.stdout.indexOf('{');
  expect(start, run.stderr).toBeGreaterThanOrEqual(0);
  return { status: run.status, report: JSON.parse(run.stdout.slice(start)) as FixtureReport };
}

describe('describeAdapterConformance on a broken adapter', () => {
  it('fails the checks the adapter breaks, in a real vitest run', () => {
    const { status: exit, report } = runFixture('broken-adapter.fixture-test.ts');
    const status = new Map(
      report.testResults.flatMap((f) => f.assertionResults.map((a) => [a.title, a.status])),
    );
    expect(exit).toBe(1);
    // Names and families are fine; everything else this adapter does is wrong.
    expect(status.get('has a name and distinct, non-empty families')).toBe('passed');
    expect(status.get('loads valid tasks with unique ids, this split and a declared family')).toBe('failed');
    expect(status.get('is deterministic by seed')).toBe('failed');
    expect(
      status.get('plays episodes through reset/step within maxSteps, and the verifier judges them in [0, 1]'),
    ).toBe('failed');
    // Its verifier passes everything, an episode without steps too.
    expect(
      status.get(
        'judges the trajectory it is given: the same verdict again from a copy, no pass without steps',
      ),
    ).toBe('failed');
    expect(
      status.get('ships skills that are valid SKILL.md and round-trip through formatSkill/parseSkill'),
    ).toBe('failed');
    expect(report.numFailedTests).toBe(5);
  });
});

describe('describeAdapterConformance plays episodes as real runs record them', () => {
  it('fails a verifier reading steps.at(-1).info.sorted and passes one reading steps.at(-1).info.env.sorted', () => {
    const { status: exit, report } = runFixture('sorting-adapters.fixture-test.ts');
    const results = report.testResults.flatMap((f) => f.assertionResults);
    const solved = (adapter: string) =>
      results.find(
        (a) => a.fullName.includes(adapter) && a.title.startsWith('passes the episodes its own solution'),
      )?.status;
    expect(exit).toBe(1);
    expect(solved('sorting-reading-info-env-sorted')).toBe('passed');
    expect(solved('sorting-reading-info-sorted')).toBe('failed');
    // Without solve it fails too: two of the random episodes sort the row, and the verifier scores them 0.
    const agrees = (adapter: string) =>
      results.find((a) => a.fullName.includes(adapter) && a.title.startsWith('scores no episode 0'))?.status;
    expect(agrees('sorting-reading-info-env-sorted')).toBe('passed');
    expect(agrees('sorting-reading-info-sorted')).toBe('failed');
    // Those are the only checks the misplaced read fails.
    expect(report.numFailedTests).toBe(2);
    expect(
      results
        .filter((a) => a.fullName.includes('sorting-reading-info-env-sorted'))
        .every((a) => a.status === 'passed'),
    ).toBe(true);
  });
});

describe('describeAdapterConformance catches what passes a naive kit and scores 0 in real runs', () => {
  it('fails each broken pick adapter on its own check, and passes the right one', () => {
    const { status: exit, report } = runFixture('kit-gaps.fixture-test.ts');
    const results = report.testResults.flatMap((f) => f.assertionResults);
    const failed = (adapter: string) =>
      results
        .filter((a) => a.fullName.includes(`conformance: ${adapter} `) && a.status === 'failed')
        .map((a) => a.title);
    expect(exit).toBe(1);
    expect(failed('pick-reading-info-env-won')).toEqual([]);
    // Without solve: won episodes scored 0, because trajectory.reward is 0 until the verdict sets it.
    expect(failed('pick-reading-trajectory-reward')).toEqual([
      'scores no episode 0 that the environment reports won (info.env.won or success, or reward 1)',
    ]);
    // It reads the last environment created, not the trajectory: right while episodes run one by one.
    expect(failed('pick-reading-the-last-environment')).toEqual([
      'judges the trajectory it is given: the same verdict again from a copy, no pass without steps',
    ]);
    // The environment takes "CAT", so the verifier passes; a policy choosing among "cat", … never sends it.
    expect(failed('pick-solved-shouting')).toEqual([
      'plays its solution from admissibleActions() alone, where the environment lists them',
    ]);
    expect(report.numFailedTests).toBe(3);
  });
});
