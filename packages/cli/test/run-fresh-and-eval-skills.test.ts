import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finish, internalizeConfig, startCli, tempDir, writeConfig } from './support.js';

const AGENT = resolve(__dirname, 'fixtures/general-section-agent.mjs');
const cli = (args: string[]) => finish(startCli(args));
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').at(-1) as string);
/** What tells runs of one config apart: a marker the test leaves in each directory after its run. */
const markerOf = (dir: string) =>
  existsSync(join(dir, 'marker')) ? readFileSync(join(dir, 'marker'), 'utf8') : undefined;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('skillrl run --fresh (built CLI)', () => {
  it('without it a directory holding a run is refused and left as it was; with it the run is moved aside', async () => {
    const dir = tempDir('fresh');
    dirs.push(dir);
    const config = writeConfig(
      dir,
      internalizeConfig(
        { name: 'again', tasks: { split: 'train', limit: 4 } },
        { steps: 1, validateEvery: 1 },
      ),
    );
    const runDir = join(dir, 'runs', 'again');

    const first = await cli(['run', config, '--json']);
    expect(first.code, first.err).toBe(0);
    writeFileSync(join(runDir, 'marker'), 'first');

    // Unchanged behaviour: refused, nothing moved.
    const refused = await cli(['run', config, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toMatch(/already holds a run/);
    // The refusal names both ways on: resume, or --fresh (which moves the old run aside).
    expect(refused.out + refused.err).toMatch(/skillrl resume .*--fresh/s);
    expect(markerOf(runDir)).toBe('first');
    expect(existsSync(`${runDir}.previous-1`)).toBe(false);

    // A config that does not parse moves nothing, --fresh or not.
    const broken = await cli(['run', config, '--fresh', '--set', 'internalize.steps="many"']);
    expect(broken.code).not.toBe(0);
    expect(markerOf(runDir)).toBe('first');
    expect(existsSync(`${runDir}.previous-1`)).toBe(false);

    const fresh = await cli(['run', config, '--fresh', '--json']);
    expect(fresh.code, fresh.err).toBe(0);
    expect(fresh.err).toContain(`moved to ${runDir}.previous-1`);
    expect(lastJson(fresh.out).status).toBe('completed');
    expect(markerOf(`${runDir}.previous-1`)).toBe('first');
    expect(existsSync(join(runDir, 'run.json'))).toBe(true);
    expect(markerOf(runDir)).toBeUndefined();
    writeFileSync(join(runDir, 'marker'), 'second');

    // The next free name: the earlier copies stay.
    const third = await cli(['run', config, '--fresh', '--json']);
    expect(third.code, third.err).toBe(0);
    expect(markerOf(`${runDir}.previous-1`)).toBe('first');
    expect(markerOf(`${runDir}.previous-2`)).toBe('second');
    expect(markerOf(runDir)).toBeUndefined();
  }, 120_000);
});

describe('eval <config> and eval <run-dir>: the with-skill side carries what training carries', () => {
  it('an external-trainer run: both forms give the same numbers on the same tasks, general sections included', async () => {
    const dir = tempDir('eval-skills');
    dirs.push(dir);
    // The agent succeeds with a skill only when the prompt's skill holds household's general section.
    const config = writeConfig(
      dir,
      internalizeConfig(
        {
          name: 'untrained',
          tasks: { split: 'train', limit: 4 },
          agent: { package: AGENT, export: 'createGeneralSectionAgent' },
        },
        { steps: 1, validateEvery: 1, trainer: 'external' },
      ),
    );
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(0);
    const runDir = lastJson(run.out).dir as string;

    const args = ['--split', 'valid_unseen', '--limit', '6', '--json'];
    const fromConfig = await cli(['eval', config, ...args]);
    expect(fromConfig.code, fromConfig.err).toBe(0);
    const fromRun = await cli(['eval', runDir, ...args]);
    expect(fromRun.code, fromRun.err).toBe(0);
    const a = lastJson(fromConfig.out);
    const b = lastJson(fromRun.out);
    expect(b.restored).toBe('as-configured');
    expect(a.tasks).toEqual(b.tasks);
    // The general sections reached the with-skill prompts of both (own file alone: 0 %).
    expect(a.overall.withSkill).toBe(1);
    expect(a.overall.withoutSkill).toBe(0);
    expect(a.overall).toEqual(b.overall);
    expect(a.families).toEqual(b.families);
  }, 120_000);
});
