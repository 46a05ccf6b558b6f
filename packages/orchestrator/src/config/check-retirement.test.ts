import type { RunConfig } from '@skillrl/core';
import household from '@skillrl/task-household';
import { describe, expect, it } from 'vitest';
import { retirementWarnings } from './check-retirement.js';

const skillc = (section: RunConfig['internalize']): RunConfig => ({
  method: 'internalize',
  seed: 1,
  adapter: 'household',
  tasks: { split: 'train', limit: 64 },
  agent: 'skill-reading',
  internalize: { trainer: 'tfjs', ...section },
});

describe('retirementWarnings', () => {
  it('flags a validation that can never retire a type, and passes the bench protocol', async () => {
    // The old quick start: 12 valid_seen tasks (2 a type and side), 20 steps, every 5: 5 validations.
    const quick = await retirementWarnings(
      skillc({ steps: 20, validateEvery: 5, validation: { split: 'valid_seen', limit: 12 } }),
      household,
    );
    expect(quick).toHaveLength(1);
    expect(quick[0]).toMatch(/^internalize\.validation: no skill type can ever retire in this run/);
    expect(quick[0]).toMatch(/needs \d+ validations of \d+ episodes a side.*the run has 5/);
    expect(quick[0]).toMatch(/validation\.limit.*validationEpisodes/);
    // The default validation (8 tasks) is worse; it says so too.
    expect(await retirementWarnings(skillc({ steps: 120 }), household)).toHaveLength(1);
    // bench:paper's protocol: 48 valid_seen tasks, 360 steps, every 10.
    const bench = skillc({ steps: 360, validateEvery: 10, validation: { split: 'valid_seen', limit: 48 } });
    expect(await retirementWarnings(bench, household)).toEqual([]);
    // Variants that do not prune have nothing to warn about.
    expect(
      await retirementWarnings(
        skillc({ steps: 20, ablation: 'no-pruning', validation: { split: 'valid_seen', limit: 12 } }),
        household,
      ),
    ).toEqual([]);
    expect(await retirementWarnings(skillc({ steps: 20, variant: 'grpo' }), household)).toEqual([]);
    // A τ no pool can reach, set by the config's curriculum options, is named too.
    const tight = await retirementWarnings(
      { ...bench, internalize: { ...bench.internalize, curriculum: { tau: 0.01, minEvidence: 36 } } },
      household,
    );
    expect(tight[0]).toMatch(/not below tau 0\.01/);
  });
});
