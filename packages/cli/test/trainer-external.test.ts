import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Trajectory } from '@skillrl/core';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir, writeConfig } from './support.js';

// `trainer: external` trains nothing and says so; `skillrl export` (@skillrl/export, whose own tests check
// every row against what the model server received) turns the run into rows an LLM trainer can use.

const run = promisify(execFile);
const KEY = 'sk-test-export-0123456789';

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI({ seed: 9, respond: () => 'Looking.\n<action>look</action>' });
});
afterAll(async () => {
  await server.close();
});

const env = { ...process.env, SKILLRL_TEST_KEY: KEY };
async function cli(args: string[]) {
  try {
    const r = await run(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

const lines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

describe('external training, honestly', () => {
  const dir = tempDir('trainer-external');
  const runDir = join(dir, 'runs', 'external');

  it('an internalize run with trainer external says that no policy update happened, everywhere', async () => {
    const path = writeConfig(dir, {
      method: 'internalize',
      seed: 3,
      name: 'external',
      adapter: 'household',
      tasks: { split: 'train', limit: 4 },
      agent: {
        name: 'openai',
        options: {
          model: 'fake-model',
          baseURL: server.baseURL,
          apiKeyEnv: 'SKILLRL_TEST_KEY',
          logprobs: true,
          returnTokenIds: true,
        },
      },
      concurrency: 4,
      maxSteps: 3,
      internalize: {
        steps: 2,
        tasksPerStep: 2,
        groupSize: 2,
        validateEvery: 1,
        validation: { split: 'valid_seen', limit: 2 },
        trainer: 'external',
      },
    });
    const r = await cli(['run', path]);
    expect(r.code, r.err).toBe(0);
    const tail = r.out.trimEnd().split('\n').at(-1) ?? '';
    expect(tail).toMatch(/^no policy update happened: .*frozen starting policy/);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ frozenPolicy: true, metrics: { policy_frozen: 1 } });
    expect(summary.policyUpdate).toContain('registry:external');
    const events = lines<{ type: string; frozenPolicy?: boolean; metrics?: Record<string, number> }>(
      join(runDir, 'events.jsonl'),
    );
    const validations = events.filter((e) => e.type === 'validation');
    // step 0, 1, 2
    expect(validations).toHaveLength(3);
    for (const v of validations) expect(v.frozenPolicy).toBe(true);
    // No training metric pretends an update: the external trainer returns none.
    for (const e of events.filter((x) => x.type === 'step')) {
      expect(Object.keys(e.metrics ?? {}).some((k) => k.startsWith('train_'))).toBe(false);
    }
    const report = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(report).toContain('No policy update happened in this run');
    expect(report).toContain('frozen policy, no update');
  }, 60_000);

  it('skillrl export --format trl and verl write the training turns of that run, notes on stderr', async () => {
    const trained = lines<Trajectory>(join(runDir, 'rollouts.jsonl')).filter((t) => /^s\d+\//.test(t.id));
    const turns = trained.reduce((a, t) => a + t.steps.length, 0);
    expect(trained).toHaveLength(8);
    const trl = await cli(['export', runDir, '--format', 'trl', '--json']);
    expect(trl.code, trl.err).toBe(0);
    const result = JSON.parse(trl.out);
    expect(result).toMatchObject({ ok: true, format: 'trl', rows: turns, sources: 8, notes: [] });
    expect(result.path).toBe(join(runDir, 'export-trl.jsonl'));
    const rows = lines<{ prompt: { role: string }[]; completion_ids?: number[] }>(result.path);
    expect(rows).toHaveLength(turns);
    expect(rows.every((row) => row.prompt[0]?.role === 'system' && row.completion_ids)).toBe(true);
    // Household lists the admissible actions with the newest observation: verl rows per turn, and a note.
    const verl = await cli(['export', runDir, '--format', 'verl', '--out', join(dir, 'verl.jsonl')]);
    expect(verl.code, verl.err).toBe(0);
    expect(verl.out).toBe(`wrote ${turns} verl rows to ${join(dir, 'verl.jsonl')}\n`);
    expect(verl.err).toMatch(/^note: 8 of 8 trajectories are one row per turn/);
  }, 60_000);
});
