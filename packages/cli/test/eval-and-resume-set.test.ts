import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunStream } from '@skillrl/core';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  finish,
  internalizeConfig,
  jsonResult as json,
  refusedPort,
  startCli,
  tempDir,
  withoutWarnings,
  writeConfig,
} from './support.js';

// `skillrl eval` and `skillrl resume --set` through the built CLI, against the testkit's fake OpenAI server
// and a port on which nothing listens: eval counts the episodes that ended in an error, stops with exit 3
// past the config's `health` budget with the run's kind of message, evaluates the tasks the config names
// (its `tasks.limit` included), and says what it evaluated for a run whose trainer is external; resume
// --set changes endpoints, keys, timeouts, retries, rate limits and concurrency, and nothing else.

const KEY = 'sk-eval-test-0123456789abcdef';
const ENV = { ...process.env, SKILLRL_EVAL_KEY: KEY };

const cli = (args: string[]) => finish(startCli(args, { env: ENV }));

const WITH_SKILL = '<skill name=';

const respond = (_request: unknown, ctx: { index: number }) =>
  ctx.index % 2 === 0 ? 'Action: look' : 'Action: inventory';

const agentAt = (baseURL: string, extra: Record<string, unknown> = {}) => ({
  name: 'openai',
  options: {
    model: 'fake-model',
    baseURL,
    apiKeyEnv: 'SKILLRL_EVAL_KEY',
    timeoutMs: 2000,
    retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  },
});

/**
 * A small SKILLC config of the LLM task model with an external trainer: 4 training tasks, a validation of
 * 2 `valid_seen` tasks. 3 steps per episode; these actions never finish one.
 */
const llmConfig = (name: string, baseURL: string, extra: Record<string, unknown> = {}) =>
  internalizeConfig(
    { name, agent: agentAt(baseURL), maxSteps: 3, tasks: { split: 'train', limit: 4 }, ...extra },
    {
      steps: 2,
      tasksPerStep: 2,
      groupSize: 2,
      validateEvery: 2,
      validation: { split: 'valid_seen', limit: 2 },
      trainer: 'external',
    },
  );

let good: FakeOpenAIServer;
/** Fails every request of the with-skill condition (401), answers the others. */
let skillFails: FakeOpenAIServer;

beforeAll(async () => {
  good = await startFakeOpenAI({ seed: 3, respond });
  skillFails = await startFakeOpenAI({
    seed: 3,
    respond,
    faults: {
      plan: ({ request }) =>
        String(request.messages?.[0]?.content ?? '').includes(WITH_SKILL) ? 'unauthorized' : undefined,
    },
  });
});

afterAll(async () => {
  await good.close();
  await skillFails.close();
});

describe('skillrl eval <config>: the config’s tasks, errors counted, exit 3 past the budget', () => {
  it('evaluates exactly the config’s tasks.limit tasks × episodes × 2 conditions, and no error', async () => {
    const dir = tempDir('eval-limit');
    const config = writeConfig(dir, llmConfig('limit', good.baseURL));
    const before = good.stats().received;
    const r = await cli(['eval', config, '--episodes', '2', '--json']);
    expect(r.code, r.err).toBe(0);
    const out = json(r);
    expect(out.ok).toBe(true);
    // 4 tasks × 2 episodes × 2 conditions, each episode 3 model calls.
    expect(out.overall.episodes).toBe(16);
    expect(out.families.reduce((a: number, f: { episodes: number }) => a + f.episodes, 0)).toBe(16);
    expect(good.stats().received - before).toBe(16 * 3);
    expect(out.tasks).toEqual({ split: 'train', limit: 4, seed: 11 });
    expect(out.tasksFrom).toBe('tasks');
    expect(out.errors).toMatchObject({ total: 0, withSkill: 0, withoutSkill: 0 });
    expect(out.errors.common).toBeUndefined();

    // Another split keeps the limit the config gives it: valid_seen is the validation's (2), valid_unseen
    // is named nowhere, so tasks.limit (4) — never every task of the split.
    const seen = json(await cli(['eval', config, '--split', 'valid_seen', '--json']));
    expect(seen).toMatchObject({
      tasks: { split: 'valid_seen', limit: 2 },
      tasksFrom: 'internalize.validation',
    });
    expect(seen.overall.episodes).toBe(4);
    const unseen = json(await cli(['eval', config, '--split', 'valid_unseen', '--json']));
    expect(unseen).toMatchObject({ tasks: { split: 'valid_unseen', limit: 4 }, tasksFrom: 'tasks.limit' });
    expect(unseen.overall.episodes).toBe(8);
    const limited = json(await cli(['eval', config, '--split', 'valid_unseen', '--limit', '1', '--json']));
    expect(limited.overall.episodes).toBe(2);

    const table = await cli(['eval', config]);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toContain(
      `${config}: the config's agent, split train (limit 4, as the config's tasks)`,
    );
    expect(table.out).toMatch(/family\s+with skill\s+without\s+gap \(pts\)\s+episodes\s+errors/);
    expect(table.out).toMatch(/\ball\s+\S+\s+\S+\s+\S+\s+8\s+0\s*$/m);
    expect(table.out).not.toContain('ended in an error');
  }, 60_000);

  it('a refused port: exit 3 with the run’s kind of message, no table, no 0.0 %', async () => {
    const dir = tempDir('eval-refused');
    const baseURL = `http://127.0.0.1:${await refusedPort()}/v1`;
    const config = writeConfig(dir, llmConfig('refused', baseURL));
    const r = await cli(['eval', config, '--json']);
    expect(r.code, r.err).toBe(3);
    const out = json(r);
    expect(out.ok).toBe(false);
    expect(out.status).toBe('failed');
    expect(out.error).toMatchObject({
      code: 'SKILLRL_EVAL_HEALTH',
      kind: 'rollout',
      rule: 'first-batch',
      errors: 8,
      samples: 8,
      share: 1,
      endpoint: baseURL,
      field: 'agent.options.baseURL',
      target: config,
      common: { error: expect.stringMatching(/^model: .*Connection error/), count: 8 },
    });
    expect(out.families).toBeUndefined();

    const plain = await cli(['eval', config]);
    expect(plain.code).toBe(3);
    expect(plain.out).toBe('');
    expect(withoutWarnings(plain.err)).toMatch(
      new RegExp(
        `^error: the evaluation stopped: all 8 episodes ended in an error \\(health\\.firstBatch: fail-if-all-error\\)\\. Most common \\(8×\\): model: .*Connection error.*\\. Endpoint: ${baseURL.replace(/[.]/g, '\\.')} \\(agent\\.options\\.baseURL\\)\\. No success rate is reported`,
      ),
    );
    expect(plain.err).toContain(`evaluate again with \`skillrl eval ${config}\``);
    expect(plain.err).not.toContain('0.0%');
    expect(plain.err).not.toContain(KEY);
  }, 60_000);

  it('the share rule stops a long evaluation early: 4 of the last 4 (health.minSamples 4)', async () => {
    const dir = tempDir('eval-share');
    const baseURL = `http://127.0.0.1:${await refusedPort()}/v1`;
    const config = writeConfig(
      dir,
      llmConfig('share', baseURL, {
        tasks: { split: 'train', limit: 12 },
        concurrency: 1,
        health: { minSamples: 4, window: 8 },
      }),
    );
    const r = await cli(['eval', config, '--json']);
    expect(r.code, r.err).toBe(3);
    expect(json(r).error).toMatchObject({ rule: 'share', errors: 4, samples: 4, threshold: 0.5 });
    expect(json(r).error.message).toContain(
      'the evaluation stopped: 4 of the last 4 episodes ended in an error (100% > health.maxErrorShare 50%)',
    );
  }, 60_000);

  it('errors under the budget are counted per family and condition, and are not scored', async () => {
    const dir = tempDir('eval-counted');
    // Every with-skill episode fails (4 of 8: 50 %, not over the default 50 %).
    const config = writeConfig(dir, llmConfig('counted', skillFails.baseURL));
    const r = await cli(['eval', config, '--json']);
    expect(r.code, r.err).toBe(0);
    const out = json(r);
    expect(out.overall).toEqual({ withSkill: null, withoutSkill: 0, episodes: 8 });
    expect(out.errors).toMatchObject({
      total: 4,
      withSkill: 4,
      withoutSkill: 0,
      common: { error: expect.stringMatching(/^model: .*401/), count: 4 },
    });
    expect(out.errors.families).toHaveLength(4);
    for (const f of out.errors.families) expect(f).toMatchObject({ withSkill: 1, withoutSkill: 0, total: 1 });
    for (const f of out.families) expect(f.withSkill).toBeNull();

    const table = await cli(['eval', config]);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toMatch(/\ball\s+—\s+0\.0%\s+—\s+8\s+4 \(4 with, 0 without\)/);
    expect(table.out).toContain(
      '4 of 8 episodes ended in an error (4 with the skill, 0 without); most common (4×): model: ',
    );
    expect(table.out).toContain('They are not results');

    // The same errors over a tighter budget: the evaluation as a whole is judged (rule unit).
    const tight = writeConfig(
      dir,
      llmConfig('tight', skillFails.baseURL, { health: { maxErrorShare: 0.4 } }),
      'tight.yaml',
    );
    const stopped = await cli(['eval', tight, '--json']);
    expect(stopped.code, stopped.err).toBe(3);
    expect(json(stopped).error).toMatchObject({ rule: 'unit', unit: 'eval', errors: 4, samples: 8 });
    expect(json(stopped).error.message).toContain(
      "the evaluation stopped: 4 of the evaluation's 8 episodes ended in an error (50% > health.maxErrorShare 40%)",
    );
  }, 60_000);

  it('every episode in error is no result even when health allows it (maxErrorShare 1, firstBatch off)', async () => {
    const dir = tempDir('eval-all');
    const baseURL = `http://127.0.0.1:${await refusedPort()}/v1`;
    const config = writeConfig(
      dir,
      llmConfig('all', baseURL, { health: { maxErrorShare: 1, firstBatch: 'off' } }),
    );
    const r = await cli(['eval', config, '--json']);
    expect(r.code, r.err).toBe(3);
    expect(json(r).error).toMatchObject({ rule: 'all-failed', errors: 8, samples: 8 });
  }, 60_000);
});

describe('skillrl eval <run-dir> of a run with an external trainer', () => {
  it('says it evaluates the configured task model, loads the split as the run did, and stops on a dead endpoint', async () => {
    const server = await startFakeOpenAI({ seed: 5, respond });
    const dir = tempDir('eval-run');
    const config = writeConfig(dir, llmConfig('external', server.baseURL));
    const ran = await cli(['run', config, '--json']);
    expect(ran.code, ran.err).toBe(0);
    const runDir = join(dir, 'runs', 'external');

    const r = await cli(['eval', runDir, '--split', 'valid_seen', '--json']);
    expect(r.code, r.err).toBe(0);
    const out = json(r);
    expect(out.restored).toBe('as-configured');
    expect(out.policy).toBe(
      "the run's task model as configured, openai (model fake-model): an external trainer's weights are not in the run directory, so no training step is in what is evaluated (step 2 of the run)",
    );
    expect(out).toMatchObject({
      tasks: { split: 'valid_seen', limit: 2, seed: 12 },
      tasksFrom: 'internalize.validation',
    });
    expect(out.overall.episodes).toBe(4);
    expect(out.errors.total).toBe(0);
    // The training split: the run's tasks.limit (4), not all of them.
    const train = json(await cli(['eval', runDir, '--split', 'train', '--json']));
    expect(train.overall.episodes).toBe(8);

    const table = await cli(['eval', runDir, '--split', 'valid_seen']);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toContain(
      `${runDir}: the run's task model as configured, openai (model fake-model): an external trainer's weights are not in the run directory`,
    );
    expect(table.out).toContain("split valid_seen (limit 2, as the config's internalize.validation)");
    expect(table.out).not.toContain('trained policy');
    expect(table.out).not.toContain('replaying');

    // The endpoint the run used is gone: the run directory's evaluation stops as the config's does.
    await server.close();
    const dead = await cli(['eval', runDir, '--split', 'valid_seen', '--json']);
    expect(dead.code, dead.err).toBe(3);
    expect(json(dead).error).toMatchObject({
      code: 'SKILLRL_EVAL_HEALTH',
      rule: 'first-batch',
      errors: 4,
      endpoint: server.baseURL,
      field: 'agent.options.baseURL',
      target: runDir,
    });
    expect(json(dead).error.message).toContain(
      `evaluate again with \`skillrl eval ${runDir} --split valid_seen\``,
    );
    // Nothing written by eval.
    expect(existsSync(join(runDir, 'overrides.jsonl'))).toBe(false);
  }, 120_000);
});

describe('skillrl resume --set: only what cannot change what the run computes', () => {
  it('refuses model, sampling and prompt options with the rule (exit 2, nothing written); endpoints, timeouts and retries pass', async () => {
    const dir = tempDir('resume-set');
    const bad = `http://127.0.0.1:${await refusedPort()}/v1`;
    const config = writeConfig(dir, llmConfig('set', bad));
    const stopped = await cli(['run', config, '--json']);
    expect(stopped.code, stopped.err).toBe(3);
    const runDir = json(stopped).dir as string;
    const savedBefore = readFileSync(join(runDir, 'config.json'), 'utf8');

    const refusals: [string, string][] = [
      ['agent.options.model=gpt-4o', 'start a new run for another model'],
      ['agent.options.temperature=0.7', 'start a new run for other sampling options'],
      ['agent.options.topP=0.5', 'start a new run for other sampling options'],
      ['agent.options.systemPrompt=Be brief.', 'start a new run for another prompt'],
      ['evolve.generator.options.model.model=other', 'start a new run for another model'],
      ['evolve.generator.options.model.temperature=0', 'start a new run for other sampling options'],
    ];
    for (const [set, advice] of refusals) {
      const r = await cli(['resume', runDir, '--set', set, '--set', `agent.options.baseURL=${good.baseURL}`]);
      const path = set.slice(0, set.indexOf('='));
      expect(r.code, `${set}: ${r.err}`).toBe(2);
      expect(r.err).toContain(
        `error: Invalid --set: "${path}" cannot be changed on resume: only endpoints, keys, timeouts, retries, rate limits and concurrency can (they do not change what the run computes); ${advice}`,
      );
    }
    // Refused before anything ran or was recorded.
    expect(existsSync(join(runDir, 'overrides.jsonl'))).toBe(false);
    expect(readFileSync(join(runDir, 'config.json'), 'utf8')).toBe(savedBefore);

    const fixed = await cli([
      'resume',
      runDir,
      '--set',
      `agent.options.baseURL=${good.baseURL}`,
      '--set',
      'agent.options.timeoutMs=5000',
      '--set',
      'agent.options.retry.maxRetries=2',
      '--set',
      'agent.options.requestsPerMinute=6000',
      '--set',
      'agent.options.apiKeyEnv=SKILLRL_EVAL_KEY',
      '--set',
      'concurrency=2',
      '--json',
    ]);
    expect(fixed.code, fixed.err).toBe(0);
    expect(json(fixed)).toMatchObject({ ok: true, status: 'completed' });
    const overrides = [...readRunStream<{ set: { path: string }[] }>(runDir, 'overrides')];
    expect(overrides).toHaveLength(1);
    expect(overrides[0]?.set.map((s) => s.path)).toEqual([
      'agent.options.baseURL',
      'agent.options.timeoutMs',
      'agent.options.retry.maxRetries',
      'agent.options.requestsPerMinute',
      'agent.options.apiKeyEnv',
      'concurrency',
    ]);
    const saved = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(saved.agent.options).toMatchObject({
      model: 'fake-model',
      baseURL: good.baseURL,
      timeoutMs: 5000,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      requestsPerMinute: 6000,
    });
    expect(readFileSync(join(runDir, 'config.json'), 'utf8')).not.toContain(KEY);
  }, 60_000);
});
