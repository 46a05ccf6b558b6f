import { describe, expect, it } from 'vitest';
import { finish, jsonResult, startCli, tempDir, writeConfig } from './support.js';

// issue 36: a config with five kinds of mistakes hears of all five from `check` in one call, and `run` refuses
// the same five before anything starts (no run directory is written).

const cli = async (args: string[], cwd?: string) => finish(startCli(args, cwd ? { cwd } : {}));

const fiveMistakes = {
  method: 'internalize',
  seed: 3,
  name: 'five',
  adapter: 'household',
  // 1. schema: a field the schema does not know
  tasks: { split: 'train', limit: 6, shuffel: true },
  // 2. a bad component option: skill-reading has no option of this name
  agent: { name: 'skill-reading', options: { hiddenSizeTypo: 8 } },
  // 3. an estimator option the method's batch fields replace (SKILLC's λ comes from the curriculum)
  estimator: { name: 'skillc', options: { lambda: 0.5 } },
  internalize: {
    steps: 4,
    // 4. an unknown component
    trainer: 'no-such-trainer',
    // 5. a retirement that can never happen: 2 validation tasks, 4 steps
    validation: { split: 'valid_seen', limit: 2 },
  },
};

const lines = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));

describe('every mistake at once', () => {
  it('check reports all five kinds in one call; run refuses the same before anything starts', async () => {
    const dir = tempDir('five-mistakes');
    const config = writeConfig(dir, fiveMistakes);
    const check = await cli(['check', config]);
    expect(check.code).toBe(1);
    const said = check.err;
    expect(said).toContain('$.tasks.shuffel');
    expect(said).toContain('hiddenSizeTypo');
    expect(said).toContain('$.estimator.options.lambda');
    expect(said).toContain('Unknown trainer "no-such-trainer"');
    expect(lines(said, 'warning:').join('\n')).toMatch(/can never retire/);

    const run = await cli(['run', config]);
    expect(run.code).toBe(1);
    // The same five: four problems listed in one error, and the retirement warning beside them.
    const refused = run.err;
    const listed = refused.split('\n').filter((l) => l.startsWith('  - '));
    for (const what of [
      '$.tasks.shuffel',
      'hiddenSizeTypo',
      '$.estimator.options.lambda',
      'no-such-trainer',
    ]) {
      expect(
        listed.some((l) => l.includes(what)),
        what,
      ).toBe(true);
    }
    expect(refused).toContain('Invalid config (4 problems)');
    expect(lines(refused, 'warning:').join('\n')).toMatch(/can never retire/);
    // Nothing started: no run directory.
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(existsSync(join(dir, 'runs', 'five'))).toBe(false);

    // --json: one line, the typed error with every problem.
    const json = await cli(['run', config, '--json']);
    expect(json.code).toBe(1);
    const printed = jsonResult(json);
    expect(printed.ok).toBe(false);
    expect(printed.error.code).toBe('SKILLRL_VALIDATION');
    expect(printed.error.issues).toHaveLength(4);
  }, 60_000);

  it('a config check passes is taken by run as it is (no problem, no refusal)', async () => {
    const dir = tempDir('five-fixed');
    const fixed = {
      ...fiveMistakes,
      tasks: { split: 'train', limit: 6 },
      agent: 'skill-reading',
      estimator: 'skillc',
      internalize: {
        steps: 2,
        tasksPerStep: 2,
        groupSize: 2,
        trainer: 'tfjs',
        validation: { split: 'valid_seen', limit: 2 },
      },
      health: { voidUnits: 0 },
    };
    const config = writeConfig(dir, fixed);
    const check = await cli(['check', config]);
    expect(check.code, check.err).toBe(0);
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(0);
  }, 120_000);
});
