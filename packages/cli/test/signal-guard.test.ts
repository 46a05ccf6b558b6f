import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '@skillrl/core';
import { readRunStream } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  evolveConfig,
  FIXTURES,
  finish,
  internalizeConfig,
  plannerAgent,
  jsonResult as result,
  startCli,
  tempDir,
  writeConfig,
} from './support.js';

// The no-signal guard through the built CLI, as a user meets it: a run whose updates learn nothing says so
// for each void unit and stops with exit 3 at health.voidUnits in a row, naming the cause; the run stays
// resumable. And DAPO's dynamic sampling, which drops zero-variance groups and refills them.

const cli = (args: string[], cwd?: string) => finish(startCli(args, cwd ? { cwd } : {}));
const events = (dir: string) => [...readRunStream<RunEvent>(dir, 'events')];

/** An agent that never finishes a task (it wastes every step): every group fails alike, every step is void. */
const hopeless = plannerAgent({ noise: 0.95, slack: 0 });

describe('the no-signal guard', () => {
  it('stops a run whose every step is void with exit 3, naming the units and why; resume can go on', async () => {
    const dir = tempDir('void');
    // health as a user's config has it: the guard at its default (the test fixtures turn it off).
    const config = writeConfig(
      dir,
      internalizeConfig({ agent: hopeless, name: 'void', health: {} }, { steps: 6 }),
    );
    const run = await cli(['run', config], dir);
    const runDir = join(dir, 'runs', 'void');
    expect(run.code).toBe(3);
    // Each void unit is warned about as it ends, then the stop names every unit of the streak and the cause.
    expect(run.err).toMatch(
      /warning: s1: no learning signal: every group was zero-variance .*1 of health\.voidUnits 3/,
    );
    expect(run.err).toMatch(/warning: s2: no learning signal/);
    expect(run.err).toMatch(
      /3 training units in a row carried no learning signal \(health\.voidUnits 3\): s1 \(every group was zero-variance/,
    );
    expect(run.err).toContain(`skillrl resume ${runDir}`);
    const written = events(runDir);
    const steps = written.filter((e) => e.type === 'step');
    expect(steps.map((e) => e.step)).toEqual([1, 2, 3]);
    for (const e of steps) {
      expect(e.type === 'step' && e.void).toMatch(/zero-variance/);
      expect(e.type === 'step' && e.metrics.signal_void).toBe(1);
      expect(e.type === 'step' && e.metrics.signal_zero_variance_share).toBe(1);
    }
    const end = written.at(-1);
    expect(end).toMatchObject({ type: 'run:end', status: 'failed' });
    // Stopped before s3 was checkpointed: a resume runs it again.
    expect(written.filter((e) => e.type === 'checkpoint').map((e) => e.step)).toEqual([1, 2]);
    expect(existsSync(join(runDir, 'summary.json'))).toBe(false);

    // --json gives the same stop as data.
    const again = await cli(['resume', runDir, '--json'], dir);
    expect(again.code).toBe(3);
    expect(result(again)).toMatchObject({
      ok: false,
      error: { code: 'SKILLRL_VOID_SIGNAL', rule: 'void-signal', voidUnits: 3 },
    });

    // The guard off: the run completes, and its summary counts what the updates had to learn from.
    const resumed = await cli(['resume', runDir, '--set', 'health.voidUnits=0', '--json'], dir);
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
    expect(summary.signal).toMatchObject({ units: 6, voidUnits: 6, zeroVarianceGroupShare: 1 });
    expect(result(resumed).metrics.signal_void_units).toBe(6);
  }, 120_000);

  it('a run with signal is not stopped, and its summary says how much of it was void', async () => {
    const dir = tempDir('signal');
    const config = writeConfig(
      dir,
      internalizeConfig({ name: 'signal', agent: plannerAgent({ noise: 0.3, slack: 2 }) }, { steps: 4 }),
    );
    const run = await cli(['run', config, '--json'], dir);
    expect(run.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'runs', 'signal', 'summary.json'), 'utf8'));
    expect(summary.signal.units).toBe(4);
    expect(summary.signal.voidUnits).toBeLessThan(4);
    expect(summary.signal.groups).toBe(12);
  }, 120_000);
});

describe('dynamic sampling (DAPO)', () => {
  it('drops zero-variance groups and refills them under units of their own; a resume repeats nothing', async () => {
    const dir = tempDir('dapo');
    const config = writeConfig(
      dir,
      internalizeConfig(
        { name: 'dapo', agent: plannerAgent({ noise: 0.8, slack: 1 }), health: { voidUnits: 0 } },
        { steps: 3, dynamicSampling: { maxBatches: 3 } },
      ),
    );
    const run = await cli(['run', config, '--json'], dir);
    expect(run.code).toBe(0);
    const runDir = join(dir, 'runs', 'dapo');
    const steps = events(runDir).filter((e) => e.type === 'step');
    const refilled = steps.filter((e) => e.type === 'step' && (e.metrics.ds_batches ?? 0) > 1);
    expect(refilled.length).toBeGreaterThan(0);
    for (const e of steps) {
      if (e.type !== 'step') continue;
      expect(e.metrics.ds_kept_groups).toBeLessThanOrEqual(3);
      expect(e.metrics.ds_batches).toBeLessThanOrEqual(3);
    }
    // Each refill batch is a unit of its own, with its own rollout ids.
    const units = [...readRunStream<{ key: string }>(runDir, 'units')].map((u) => u.key);
    expect(units.some((u) => /^s\d+b\d+$/.test(u))).toBe(true);
    // Trained rows are the kept groups only: no row of a dropped (zero-variance) group.
    const taskOf = new Map(
      [...readRunStream<{ id: string; taskId: string }>(runDir, 'rollouts')].map((t) => [t.id, t.taskId]),
    );
    const rows = [...readRunStream<{ unit: string; rows: { trajectoryId: string }[] }>(runDir, 'advantages')];
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      const step = steps.find((e) => e.type === 'step' && `s${e.step}` === r.unit);
      const kept = step?.type === 'step' ? step.metrics.ds_kept_groups : undefined;
      expect(new Set(r.rows.map((x) => taskOf.get(x.trajectoryId))).size).toBe(kept);
    }
    const stored = () => [...readRunStream<{ id: string }>(runDir, 'rollouts')].map((t) => t.id);
    const before = stored();
    const again = await cli(['resume', runDir, '--json'], dir);
    expect(again.code).toBe(0);
    expect(stored()).toEqual(before);
  }, 120_000);
});

describe('the no-signal guard on Skill-R1', () => {
  it('stops an evolve run whose editor returns its input: every candidate byte-identical to its parent', async () => {
    const dir = tempDir('void-evolve');
    const config = writeConfig(
      dir,
      evolveConfig(
        // The fixture's default (guard off) replaced by the guard's own default.
        { name: 'echo', health: { voidUnits: 3 } },
        {
          generations: 5,
          mode: 'inference',
          generator: { package: FIXTURES, export: 'createEchoGenerator' },
        },
      ),
    );
    const run = await cli(['run', config], dir);
    expect(run.code).toBe(3);
    expect(run.err).toMatch(/warning: g1: no learning signal: every candidate was byte-identical/);
    expect(run.err).toMatch(
      /3 training units in a row carried no learning signal \(health\.voidUnits 3\): g1 \(/,
    );
    const runDir = join(dir, 'runs', 'echo');
    const generations = events(runDir).filter((e) => e.type === 'generation' && e.generation > 0);
    expect(generations.length).toBeGreaterThan(0);
    for (const e of generations) {
      if (e.type !== 'generation') continue;
      expect(e.void).toMatch(/byte-identical/);
      expect(e.metrics?.signal_identical_candidates).toBe(e.metrics?.signal_candidates);
    }
    expect(events(runDir).at(-1)).toMatchObject({ type: 'run:end', status: 'failed' });
  }, 120_000);
});
