import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readRunStream, type Trajectory } from '@skillrl/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURES,
  finish,
  internalizeConfig,
  jsonResult,
  startCli,
  tempDir,
  writeConfig,
} from './support.js';

// "The latest record per rollout id", end to end through the built CLI. A real SKILLC run whose task model
// fails once mid-episode (a model call that failed past its retries: the rollout is stored with its error
// after one step) stops on its error budget; `skillrl resume` runs that rollout again, which appends a second
// record under the same id (more steps, no error), and the step's update is made on it. Then export, the
// report and eval's replay of the updates must each see the re-run, never the errored record before it.

const LOG_ENV = 'SKILLRL_LATEST_RECORD_LOG';

/**
 * The planner fixture as a task model that throws once (while a marker file exists) at the second decision of
 * the first training episode, without state hooks, so that `eval <run-dir>` rebuilds it by replaying the
 * updates; and the noise trainer, logging every batch it is given (to the file named by LOG_ENV).
 */
const flakyModule = (fixtures: string) => `
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { createNoiseTrainer, createPlannerAgent } from '${pathToFileURL(fixtures).href}';

export function createFlakyPlanner(options, ctx) {
  const inner = createPlannerAgent(options, ctx);
  return {
    name: 'flaky-planner',
    async act(context) {
      if (context.task.split === 'train' && context.stepIndex === 1 && existsSync(options.failOnce)) {
        rmSync(options.failOnce);
        throw new Error('HTTP 503: the model is overloaded (after 3 retries)');
      }
      return inner.act(context);
    },
    adjust: (family, delta) => inner.adjust(family, delta),
    noise: () => inner.noise(),
  };
}

export function createLoggingTrainer(options, ctx) {
  const inner = createNoiseTrainer(options, ctx);
  return {
    async update(batch) {
      const log = process.env.${LOG_ENV};
      if (log) {
        appendFileSync(log, JSON.stringify(batch.trajectories.map((t, i) => ({
          id: t.id, steps: t.steps.length, error: t.error ?? null, advantage: batch.advantages[i],
        }))) + '\\n');
      }
      return inner.update(batch);
    },
  };
}
`;

interface Logged {
  id: string;
  steps: number;
  error: unknown;
  advantage: number;
}

const batchesIn = (file: string): Logged[][] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Logged[]);

let dir: string;
let runDir: string;
let failedId: string;
let errored: Trajectory;
let rerun: Trajectory;
let runLog: string;
const cli = (args: string[], log?: string) =>
  finish(startCli(args, { env: { ...process.env, ...(log ? { [LOG_ENV]: log } : {}) } }));

beforeAll(async () => {
  dir = tempDir('latest-record');
  const module = join(dir, 'flaky.mjs');
  writeFileSync(module, flakyModule(FIXTURES));
  const marker = join(dir, 'fail-once');
  writeFileSync(marker, '');
  runLog = join(dir, 'run-batches.jsonl');
  const config = writeConfig(
    dir,
    internalizeConfig(
      {
        name: 'latest',
        agent: {
          package: module,
          export: 'createFlakyPlanner',
          options: { noise: 0.6, slack: 1, failOnce: marker },
        },
        // One episode at a time, and the first error stops the run (as a budget spent by an outage would).
        concurrency: 1,
        health: { maxErrorShare: 0, minSamples: 1 },
      },
      {
        steps: 2,
        tasksPerStep: 2,
        groupSize: 4,
        trainer: { package: module, export: 'createLoggingTrainer', options: { lr: 0.5 } },
      },
    ),
  );
  const stopped = await cli(['run', config, '--json'], runLog);
  expect(stopped.code, stopped.out + stopped.err).toBe(3);
  runDir = jsonResult(stopped).dir as string;
  expect(existsSync(marker)).toBe(false);
  const before = [...readRunStream<Trajectory>(runDir, 'rollouts')].filter((t) => t.error);
  expect(before).toHaveLength(1);
  errored = before[0] as Trajectory;
  failedId = errored.id;
  expect(failedId).toMatch(/^s1\//);
  expect(errored).toMatchObject({ error: { code: 'model' } });
  expect(errored.steps).toHaveLength(1);

  const resumed = await cli(['resume', runDir, '--json'], runLog);
  expect(resumed.code, resumed.out + resumed.err).toBe(0);
  const records = [...readRunStream<Trajectory>(runDir, 'rollouts')].filter((t) => t.id === failedId);
  // Both records are in the run: the errored one first, then the re-run under the same id.
  expect(records.map((t) => [t.steps.length > 1, t.error?.code ?? null])).toEqual([
    [false, 'model'],
    [true, null],
  ]);
  rerun = records[1] as Trajectory;
}, 180_000);

describe('a rollout errored, then run again on resume: every reader sees the re-run only', () => {
  it('the run itself trained on the re-run', () => {
    const batches = batchesIn(runLog);
    expect(batches).toHaveLength(2);
    const mine = batches.flat().filter((b) => b.id === failedId);
    expect(mine).toEqual([
      { id: failedId, steps: rerun.steps.length, error: null, advantage: expect.any(Number) },
    ]);
    expect(batches.flat().every((b) => b.error === null)).toBe(true);
  });

  it('export (skillrl export): the re-run’s steps with its advantage, nothing of the errored record', async () => {
    const out = join(dir, 'export.jsonl');
    const r = await cli(['export', runDir, '--out', out, '--json']);
    expect(r.code, r.out + r.err).toBe(0);
    const result = jsonResult(r);
    expect(result).toMatchObject({ ok: true, erroredLeftOut: 0, rowsNotWritten: 0, notes: [] });
    const advantages = readFileSync(join(runDir, 'advantages.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => (JSON.parse(l) as { rows: { trajectoryId: string; advantage: number }[] }).rows);
    const advantage = advantages.find((row) => row.trajectoryId === failedId)?.advantage;
    expect(advantage).toEqual(expect.any(Number));
    const rows = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { completion: string; advantage: number; meta: { trajectoryId: string } });
    const mine = rows.filter((row) => row.meta.trajectoryId === failedId);
    expect(mine.map((row) => row.completion)).toEqual(rerun.steps.map((s) => s.action));
    expect(mine.every((row) => row.advantage === advantage)).toBe(true);
    // One row per step of each trained rollout, each as it finally ended.
    expect(rows).toHaveLength(result.rows);
    const trainedSteps = [...readRunStream<Trajectory>(runDir, 'rollouts')]
      .filter((t) => advantages.some((row) => row.trajectoryId === t.id))
      .reduce((m, t) => m.set(t.id, t.steps.length), new Map<string, number>());
    expect(rows).toHaveLength([...trainedSteps.values()].reduce((a, b) => a + b, 0));
  });

  it('the report (skillrl report, report.html): each rollout once, no errored one left, rates over the rest', async () => {
    const r = await cli(['report', runDir, '--json']);
    expect(r.code, r.out + r.err).toBe(0);
    const { summary, path } = jsonResult(r);
    const ids = new Set([...readRunStream<Trajectory>(runDir, 'rollouts')].map((t) => t.id));
    expect(summary).toMatchObject({ rollouts: ids.size, rolloutErrors: 0, errorCodes: {} });
    const sides = (
      summary.families as {
        withSkill: { episodes: number; errored: number };
        withoutSkill: { episodes: number; errored: number };
      }[]
    ).flatMap((f) => [f.withSkill, f.withoutSkill]);
    expect(sides.reduce((a, s) => a + s.episodes, 0)).toBe(ids.size);
    expect(sides.every((s) => s.errored === 0)).toBe(true);
    const html = readFileSync(path as string, 'utf8');
    expect(html).not.toContain('>Errored<');
  });

  it('eval <run-dir>: the replay of the updates is given the re-run, exactly the batches the run trained on', async () => {
    const evalLog = join(dir, 'eval-batches.jsonl');
    const r = await cli(['eval', runDir, '--split', 'valid_seen', '--limit', '1', '--json'], evalLog);
    expect(r.code, r.out + r.err).toBe(0);
    expect(jsonResult(r)).toMatchObject({ restored: 'replay', step: 2 });
    expect(batchesIn(evalLog)).toEqual(batchesIn(runLog));
  });
});
