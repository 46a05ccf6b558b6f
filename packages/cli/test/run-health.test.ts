import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent, Trajectory } from '@skillrl/core';
import { readRunStream } from '@skillrl/core';
import { type FakeOpenAIServer, type FaultKind, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI,
  everyFile,
  evolveConfig,
  finish,
  internalizeConfig,
  refusedPort,
  jsonResult as result,
  startCli,
  tempDir,
  withoutWarnings,
  writeConfig,
} from './support.js';

// Every fault of a misconfigured endpoint, through the built CLI as a user runs it, against the testkit's
// fake OpenAI server: the run stops with status 3 and says why and where, keeps what it collected, and
// `skillrl resume` continues it once the cause is fixed.

const KEY = 'sk-health-test-0123456789abcdef';
const ENV = { ...process.env, SKILLRL_HEALTH_KEY: KEY };

const start = (args: string[], cwd?: string) => startCli(args, { env: ENV, cwd });

const cli = (args: string[], cwd?: string) => finish(start(args, cwd));

const events = (dir: string) => [...readRunStream<RunEvent>(dir, 'events')];
const rollouts = (dir: string) => [...readRunStream<Trajectory>(dir, 'rollouts')];

const respond = (request: { messages?: { content?: unknown }[] }, ctx: { index: number }) => {
  const system = String(request.messages?.[0]?.content ?? '');
  if (system.startsWith('You are a skill editor')) {
    return `\`\`\`markdown\n---\nname: household-steps-${ctx.index % 4}\ndescription: Steps for household tasks.\n---\n\n1. go to the receptacle\n2. take the object\n\`\`\`\n`;
  }
  return ctx.index % 2 === 0 ? 'Action: look' : 'Action: inventory';
};

/** A hash of a request's messages (>= 0): replies and faults that depend on what was asked, not when. */
function contentHash(request: { messages?: unknown }): number {
  const text = JSON.stringify(request.messages ?? []);
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

let good: FakeOpenAIServer;
const faulty = new Map<FaultKind, FakeOpenAIServer>();

beforeAll(async () => {
  good = await startFakeOpenAI({ seed: 3, respond });
  for (const kind of ['unauthorized', 'not-found', 'bad-gateway-html', 'non-json'] as FaultKind[]) {
    faulty.set(kind, await startFakeOpenAI({ seed: 3, respond, faults: { plan: () => kind } }));
  }
});

afterAll(async () => {
  await good.close();
  for (const server of faulty.values()) await server.close();
});

const agentAt = (baseURL: string) => ({
  name: 'openai',
  options: {
    model: 'fake-model',
    baseURL,
    apiKeyEnv: 'SKILLRL_HEALTH_KEY',
    timeoutMs: 2000,
    retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 },
  },
});

/** A small SKILLC run of the LLM task model: step 0's validation (2 tasks × 2 conditions) is the first batch. */
const llmInternalize = (name: string, baseURL: string, extra: Record<string, unknown> = {}) =>
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

describe('run health: a run whose model calls fail stops, says why and where, and resumes', () => {
  const cases: { fault: string; base: () => Promise<string>; says: RegExp }[] = [
    {
      fault: 'refused connection',
      base: async () => `http://127.0.0.1:${await refusedPort()}/v1`,
      says: /Connection error/,
    },
    { fault: '401', base: async () => faulty.get('unauthorized')!.baseURL, says: /401 Incorrect API key/ },
    { fault: '404', base: async () => faulty.get('not-found')!.baseURL, says: /404 The model/ },
    {
      fault: '404 (a wrong path)',
      base: async () => `${good.url}/wrong/v1`,
      says: /404/,
    },
    {
      fault: '502 with an HTML page',
      base: async () => faulty.get('bad-gateway-html')!.baseURL,
      says: /502 .*Bad Gateway/,
    },
    {
      fault: 'a body that is not JSON',
      base: async () => faulty.get('non-json')!.baseURL,
      says: /not valid JSON/,
    },
  ];

  it.each(cases)(
    '$fault: exit 3, ok false, the error and its endpoint named; rollouts kept',
    async (c) => {
      const dir = tempDir('health');
      const baseURL = await c.base();
      const config = writeConfig(dir, llmInternalize('stopped', baseURL));
      const run = await cli(['run', config, '--json']);
      expect(run.code, run.err).toBe(3);
      const printed = result(run);
      expect(printed.ok).toBe(false);
      expect(printed.status).toBe('failed');
      expect(printed.error.code).toBe('SKILLRL_RUN_HEALTH');
      expect(printed.error.rule).toBe('first-batch');
      expect(printed.error.kind).toBe('rollout');
      expect(printed.error.endpoint).toBe(baseURL);
      expect(printed.error.field).toBe('agent.options.baseURL');
      expect(printed.error.common.error).toMatch(c.says);
      expect(printed.error.message).toContain(`Endpoint: ${baseURL} (agent.options.baseURL)`);
      expect(printed.error.message).toContain('skillrl resume');
      // Nothing collected is lost: the first batch's rollouts are on disk, with their errors.
      const runDir = printed.dir as string;
      const stored = rollouts(runDir);
      expect(stored).toHaveLength(4);
      expect(stored.every((t) => t.error?.code === 'model')).toBe(true);
      const end = events(runDir).filter((e) => e.type === 'run:end');
      expect(end).toHaveLength(1);
      expect(end[0]).toMatchObject({ status: 'failed' });
      expect(existsSync(join(runDir, 'summary.json'))).toBe(false);
      // Without --json: the message on stderr, nothing claiming completion.
      const plain = await cli(['run', config, '--run-dir', join(dir, 'plain')]);
      expect(plain.code).toBe(3);
      // Warnings about the config (its validation cannot retire a skill type) may come first.
      expect(withoutWarnings(plain.err)).toMatch(
        /^error: the run stopped: all 4 rollouts of the first batch ended in an error/,
      );
      expect(plain.out).not.toContain('completed');
      for (const file of everyFile(runDir)) expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    },
    60_000,
  );

  it('credentials in a base URL are redacted in the message and never reach the run directory', async () => {
    const dir = tempDir('health-creds');
    const baseURL = `http://alice:hunter2-password@127.0.0.1:${await refusedPort()}/v1?api_key=topsecret-42&region=eu`;
    const config = writeConfig(dir, llmInternalize('creds', baseURL));
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(3);
    const printed = result(run);
    expect(printed.error.endpoint).toMatch(
      /^http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+\/v1\?api_key=\[REDACTED\]&region=eu$/,
    );
    for (const text of [run.out, run.err, ...everyFile(printed.dir).map((f) => readFileSync(f, 'utf8'))]) {
      expect(text).not.toContain('hunter2-password');
      expect(text).not.toContain('topsecret-42');
    }
  }, 60_000);

  it('the share rule: an endpoint that starts failing mid-run stops it; resume re-runs the failed rollouts', async () => {
    // Requests are counted here: with one episode at a time, step 0's validation takes exactly 12 (4 episodes
    // of 3 steps; these actions never finish an episode), so failing from the 13th breaks step 1.
    let calls = 0;
    let failFrom = Number.POSITIVE_INFINITY;
    const flaky = await startFakeOpenAI({
      seed: 4,
      respond,
      faults: { plan: () => (calls++ >= failFrom ? 'unauthorized' : undefined) },
    });
    try {
      const dir = tempDir('health-share');
      const config = writeConfig(
        dir,
        llmInternalize('share', flaky.baseURL, {
          health: { minSamples: 4, window: 8, maxErrorShare: 0.3 },
          concurrency: 1,
        }),
      );
      // The reference: the same run, never broken.
      const reference = await cli(['run', config, '--run-dir', join(dir, 'reference'), '--json']);
      expect(reference.code, reference.err).toBe(0);
      const total = rollouts(join(dir, 'reference')).length;

      calls = 0;
      failFrom = 12;
      const stopped = await cli(['run', config, '--json']);
      expect(stopped.code, stopped.err).toBe(3);
      const printed = result(stopped);
      const runDir = printed.dir as string;
      expect(printed.error.rule).toBe('share');
      expect(printed.error.message).toContain(
        '2 of the last 6 rollouts ended in an error (33% > health.maxErrorShare 30%)',
      );
      expect(printed.error.common).toEqual({ error: expect.stringMatching(/401/), count: 2 });
      const kept = rollouts(runDir);
      expect(kept.filter((t) => !t.error).map((t) => t.id.split('/')[0])).toEqual(['v0', 'v0', 'v0', 'v0']);
      expect(kept.filter((t) => t.error).map((t) => t.id.split('/')[0])).toEqual(['s1', 's1']);
      // No checkpoint was written for the interrupted step.
      expect(readdirSync(join(runDir, 'checkpoints')).filter((f) => f.startsWith('snapshot-'))).toEqual([]);

      failFrom = Number.POSITIVE_INFINITY;
      const resumed = await cli(['resume', runDir, '--json']);
      expect(resumed.code, resumed.err).toBe(0);
      expect(result(resumed)).toMatchObject({ ok: true, status: 'completed', reused: 4 });
      // The last record of every id ended well, and the run has the reference's rollouts.
      const last = new Map(rollouts(runDir).map((t) => [t.id, t]));
      expect(last.size).toBe(total);
      expect([...last.values()].every((t) => !t.error)).toBe(true);
      expect(
        events(runDir)
          .filter((e) => e.type === 'run:end')
          .map((e) => (e as { status: string }).status),
      ).toEqual(['failed', 'completed']);
      // The report counts each rollout once, as it finally ended.
      const report = await cli(['report', runDir, '--json']);
      expect(result(report).summary).toMatchObject({ rollouts: total, rolloutErrors: 0 });
    } finally {
      await flaky.close();
    }
  }, 120_000);

  it('the unit rule: an endpoint that dies mid-generation stops the run before that generation is scored; resume --set to a live one equals an uninterrupted run', async () => {
    // Replies from the request's content alone, so that any server answers a request as any other does.
    const byContent = (request: { messages?: { content?: unknown }[] }) =>
      contentHash(request) % 3 === 0 ? 'Action: inventory' : 'Action: look';
    const dir = tempDir('health-unit');
    const config = (baseURL: string) =>
      writeConfig(
        dir,
        evolveConfig(
          {
            name: 'unit',
            agent: agentAt(baseURL),
            maxSteps: 3,
            tasks: { split: 'train', limit: 3 },
            concurrency: 1,
          },
          { generations: 3, candidates: 2, episodes: 2 },
        ),
        `unit-${new URL(baseURL).port}.yaml`,
      );
    const live = await startFakeOpenAI({ seed: 9, respond: byContent });
    try {
      const reference = await cli([
        'run',
        config(live.baseURL),
        '--run-dir',
        join(dir, 'reference'),
        '--json',
      ]);
      expect(reference.code, reference.err).toBe(0);
      const refRollouts = rollouts(join(dir, 'reference'));
      // Requests before generation 2 (one per step; one episode at a time), then a few into it.
      const before = refRollouts.filter((t) => /^g[01]\//.test(t.id)).reduce((n, t) => n + t.steps.length, 0);
      const gen2 = refRollouts.filter((t) => t.id.startsWith('g2/'));
      expect(gen2).toHaveLength(12);
      const dying = await startFakeOpenAI({ seed: 9, respond: byContent, dieAtRequest: before + 4 });
      let runDir: string;
      try {
        const stopped = await cli(['run', config(dying.baseURL), '--json']);
        expect(stopped.code, stopped.err).toBe(3);
        expect(dying.died()).toBe(true);
        const printed = result(stopped);
        runDir = printed.dir as string;
        expect(printed.error).toMatchObject({ rule: 'unit', unit: 'g2', kind: 'rollout' });
        expect(printed.error.errors).toBeGreaterThan(6);
        expect(printed.error.message).toMatch(
          /of the 12 rollouts of unit g2 ended in an error \(\d+% > health\.maxErrorShare 50%\); the unit was not scored, checkpointed or carried/,
        );
        expect(printed.error.common.error).toMatch(/Connection error/);
        // Generation 2 left nothing behind but its rollouts: no generation event, no checkpoint past g1.
        const evs = events(runDir);
        expect(evs.some((e) => e.type === 'generation' && e.generation === 2)).toBe(false);
        expect(Math.max(...evs.filter((e) => e.type === 'checkpoint').map((e) => e.step))).toBe(2);
        expect(existsSync(join(runDir, 'summary.json'))).toBe(false);
      } finally {
        await dying.close();
      }
      const resumed = await cli([
        'resume',
        runDir,
        '--set',
        `agent.options.baseURL=${live.baseURL}`,
        '--json',
      ]);
      expect(resumed.code, resumed.err).toBe(0);
      const done = result(resumed);
      const refSummary = JSON.parse(readFileSync(join(dir, 'reference', 'summary.json'), 'utf8'));
      const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
      // The same run as the uninterrupted one: every metric but the count of rollouts run again.
      const { rollouts_rerun: rerun, ...rest } = summary.metrics;
      const { rollouts_rerun: refRerun, ...refRest } = refSummary.metrics;
      expect(rest).toEqual(refRest);
      expect(refRerun).toBe(0);
      expect(rerun).toBeGreaterThan(6);
      expect(done.metrics.rollouts).toBe(refRollouts.length);
      expect(summary.rolloutAccount).toMatchObject({ rollouts: refRollouts.length, errored: 0, rerun });
      expect(summary.rolloutAccount.units).toEqual({ g2: { rollouts: 12, errored: 0, rerun } });
      // Every rollout as it finally ended is the reference's, action for action.
      const shape = (ts: Trajectory[]) =>
        [...new Map(ts.map((t) => [t.id, t])).values()]
          .map((t) => ({
            id: t.id,
            reward: t.reward,
            actions: t.steps.map((x) => x.action),
            error: t.error?.code,
          }))
          .sort((a, b) => a.id.localeCompare(b.id));
      expect(shape(rollouts(runDir))).toEqual(shape(refRollouts));
    } finally {
      await live.close();
    }
  }, 120_000);

  it('a run whose every rollout failed is never "completed", whatever health allows', async () => {
    const dir = tempDir('health-all');
    const config = writeConfig(
      dir,
      llmInternalize('all', `http://127.0.0.1:${await refusedPort()}/v1`, {
        health: { maxErrorShare: 1, firstBatch: 'off' },
      }),
    );
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(3);
    const printed = result(run);
    expect(printed).toMatchObject({ ok: false, status: 'failed' });
    const runDir = printed.dir as string;
    // Every planned episode of the run (2 validations and 2 steps of 4) ran, and each ended in an error.
    const planned = new Set(rollouts(runDir).map((t) => t.id)).size;
    expect(planned).toBe(16);
    expect(printed.error).toMatchObject({
      code: 'SKILLRL_RUN_HEALTH',
      rule: 'all-failed',
      errors: planned,
      samples: planned,
    });
    expect(printed.error.message).toContain(`every one of the run's ${planned} rollouts ended in an error`);
    expect(printed.error.common.error).toMatch(/Connection error/);
    expect(existsSync(join(runDir, 'summary.json'))).toBe(false);
    expect(events(runDir).filter((e) => e.type === 'run:end')).toEqual([
      expect.objectContaining({ status: 'failed' }),
    ]);
  }, 60_000);

  it('summary.json and the table count rollouts that ended in an error, per unit, under budget', async () => {
    // About one request in 13 fails for good: those rollouts end in error, the rest run; no unit and no
    // window of the budget (50 %) is spent.
    const broken = await startFakeOpenAI({
      seed: 6,
      respond,
      faults: {
        // By content: a retry sends the same body and meets the same 500, so those rollouts end in error.
        plan: ({ request }) => (contentHash(request) % 13 === 0 ? 'server-error' : undefined),
      },
    });
    try {
      const dir = tempDir('health-count');
      const config = writeConfig(
        dir,
        llmInternalize('count', broken.baseURL, { health: { firstBatch: 'off' } }),
      );
      const run = await cli(['run', config, '--json']);
      expect(run.code, run.err).toBe(0);
      const printed = result(run);
      const runDir = printed.dir as string;
      const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
      const stored = [...new Map(rollouts(runDir).map((t) => [t.id, t])).values()];
      const errored = stored.filter((t) => t.error).length;
      expect(summary.metrics.rollouts).toBe(stored.length);
      expect(summary.metrics.rollouts_errored).toBe(errored);
      expect(summary.rolloutAccount.errored).toBe(errored);
      const perUnit = new Map<string, number>();
      for (const t of stored)
        if (t.error) perUnit.set(t.id.split('/')[0]!, (perUnit.get(t.id.split('/')[0]!) ?? 0) + 1);
      expect(
        Object.fromEntries(
          Object.entries(summary.rolloutAccount.units).map(([u, a]) => [
            u,
            (a as { errored: number }).errored,
          ]),
        ),
      ).toEqual(Object.fromEntries(perUnit));
      expect(errored).toBeGreaterThan(0);
      // The table a user reads says it too (another run dir: the same run again).
      const plain = await cli(['run', config, '--run-dir', join(dir, 'plain')]);
      expect(plain.code, plain.err).toBe(0);
      const again = JSON.parse(readFileSync(join(dir, 'plain', 'summary.json'), 'utf8'));
      expect(again.metrics.rollouts_errored).toBeGreaterThan(0);
      expect(plain.out).toMatch(new RegExp(`rollouts_errored\\s+${again.metrics.rollouts_errored}\\n`));
    } finally {
      await broken.close();
    }
  }, 60_000);

  it('many concurrent editor calls on the run signal: no MaxListenersExceededWarning', async () => {
    const dir = tempDir('health-listeners');
    const model = { model: 'fake-model', baseURL: good.baseURL, apiKeyEnv: 'SKILLRL_HEALTH_KEY' };
    const config = writeConfig(
      dir,
      evolveConfig(
        {
          name: 'listeners',
          agent: agentAt(good.baseURL),
          maxSteps: 2,
          tasks: { split: 'train', limit: 16 },
          concurrency: 32,
        },
        {
          mode: 'inference',
          generations: 1,
          candidates: 2,
          episodes: 1,
          generator: { name: 'llm-editor', options: { model } },
        },
      ),
    );
    const run = await cli(['run', config]);
    expect(run.code, run.err).toBe(0);
    // 16 tasks propose at once, each call listening on the run's signal until it settles.
    expect(run.err).not.toContain('MaxListenersExceededWarning');
  }, 60_000);

  it('resume --set fixes a bad baseURL: recorded in overrides.jsonl and config.json, no key on disk', async () => {
    const dir = tempDir('health-set');
    const bad = `http://127.0.0.1:${await refusedPort()}/v1`;
    const config = writeConfig(dir, llmInternalize('set', bad));
    const stopped = await cli(['run', config, '--json']);
    expect(stopped.code, stopped.err).toBe(3);
    const runDir = result(stopped).dir as string;

    // A malformed or disallowed --set is a usage error and writes nothing.
    const malformed = await cli(['resume', runDir, '--set', 'agent.options.baseURL']);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain('expected <dotted.path>=<value>');
    const disallowed = await cli(['resume', runDir, '--set', 'internalize.steps=9']);
    expect(disallowed.code).toBe(2);
    expect(disallowed.err).toContain('"internalize.steps" cannot be changed on resume');
    // A value that is not a URL fails as a config error naming the field, before anything runs.
    const notUrl = await cli(['resume', runDir, '--set', 'agent.options.baseURL=not a url', '--json']);
    expect(notUrl.code).toBe(1);
    expect(result(notUrl).error.issues).toEqual([
      expect.objectContaining({
        path: '$.agent.options.baseURL',
        message: expect.stringContaining('is not a URL'),
      }),
    ]);
    expect(existsSync(join(runDir, 'overrides.jsonl'))).toBe(false);

    const fixed = await cli([
      'resume',
      runDir,
      '--set',
      `agent.options.baseURL=${good.baseURL}`,
      '--set',
      'concurrency=2',
      '--json',
    ]);
    expect(fixed.code, fixed.err).toBe(0);
    expect(result(fixed)).toMatchObject({ ok: true, status: 'completed' });
    const overrides = [...readRunStream<{ set: unknown[] }>(runDir, 'overrides')];
    expect(overrides).toHaveLength(1);
    expect(overrides[0]?.set).toEqual([
      { path: 'agent.options.baseURL', value: good.baseURL, previous: bad },
      { path: 'concurrency', value: 2, previous: 4 },
    ]);
    const saved = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(saved.agent.options.baseURL).toBe(good.baseURL);
    expect(saved.concurrency).toBe(2);
    const last = new Map(rollouts(runDir).map((t) => [t.id, t]));
    expect([...last.values()].every((t) => !t.error)).toBe(true);
    for (const file of everyFile(runDir)) expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  }, 60_000);

  it('baseURL: not a url fails at check and at run, naming the field; nothing is created', async () => {
    const dir = tempDir('health-url');
    const config = writeConfig(dir, llmInternalize('url', 'not a url'));
    const check = await cli(['check', config, '--json']);
    expect(check.code).toBe(1);
    expect(result(check).error.issues).toEqual([
      {
        path: '$.agent.options.baseURL',
        message: 'is not a URL: "not a url" (expected e.g. http://127.0.0.1:8000/v1)',
      },
    ]);
    const run = await cli(['run', config]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('$.agent.options.baseURL: is not a URL: "not a url"');
    expect(existsSync(join(dir, 'runs'))).toBe(false);
    // An editor's nested endpoint and a list of endpoints are checked the same way.
    const editor = writeConfig(
      dir,
      evolveConfig(
        { name: 'url-editor', agent: agentAt(good.baseURL) },
        {
          mode: 'inference',
          generator: {
            name: 'llm-editor',
            options: { model: { model: 'm', baseURLs: [good.baseURL, 'ftp://x'] } },
          },
        },
      ),
      'editor.yaml',
    );
    const editorCheck = await cli(['check', editor, '--json']);
    expect(editorCheck.code).toBe(1);
    expect(result(editorCheck).error.issues).toEqual([
      {
        path: '$.evolve.generator.options.model.baseURLs[1]',
        message: 'expected an http:// or https:// URL, got "ftp://x"',
      },
    ]);
  }, 60_000);

  it('editor calls: an LLM editor whose endpoint refuses every call stops the run before a fallback is stored; resume --set asks it again', async () => {
    const dir = tempDir('health-editor');
    const editorAt = (baseURL: string) => ({
      name: 'llm-editor',
      options: {
        model: {
          model: 'fake-model',
          baseURL,
          apiKeyEnv: 'SKILLRL_HEALTH_KEY',
          timeoutMs: 2000,
          retry: { maxRetries: 0 },
        },
      },
    });
    const config = writeConfig(
      dir,
      evolveConfig(
        { name: 'editor', tasks: { split: 'train', limit: 2 } },
        {
          mode: 'inference',
          generations: 1,
          candidates: 2,
          episodes: 1,
          generator: editorAt(faulty.get('unauthorized')!.baseURL),
        },
      ),
    );
    const stopped = await cli(['run', config, '--json']);
    expect(stopped.code, stopped.err).toBe(3);
    const printed = result(stopped);
    expect(printed.error.kind).toBe('editor');
    expect(printed.error.field).toBe('evolve.generator.options.model.baseURL');
    expect(printed.error.endpoint).toBe(faulty.get('unauthorized')!.baseURL);
    expect(printed.error.message).toMatch(/editor calls of the first batch ended in an error/);
    expect(printed.error.common.error).toMatch(/401/);
    const runDir = printed.dir as string;
    // Generation 0 (s0) ran; generation 1 stored no fallback and no failed call, so a resume asks again.
    expect(rollouts(runDir).every((t) => t.id.startsWith('g0/'))).toBe(true);
    expect([...readRunStream(runDir, 'candidates')]).toEqual([]);
    expect([...readRunStream(runDir, 'rejections')]).toEqual([]);

    const resumed = await cli([
      'resume',
      runDir,
      '--set',
      `evolve.generator.options.model.baseURL=${good.baseURL}`,
      '--json',
    ]);
    expect(resumed.code, resumed.err).toBe(0);
    const candidates = [
      ...readRunStream<{ key: string; fallback?: string; candidates: unknown[] }>(runDir, 'candidates'),
    ];
    expect(candidates.map((c) => c.key).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^g1\//)]),
    );
    expect(candidates.every((c) => c.fallback === undefined && c.candidates.length > 0)).toBe(true);
  }, 60_000);
});

describe('signals, finished runs and pipes', () => {
  const slowServer = () => startFakeOpenAI({ seed: 5, respond, latencyMs: [15, 25] });
  let referenceTotal: Promise<number> | undefined;

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} mid-run writes run:end cancelled and exits ${code}; resume completes it${signal === 'SIGTERM' ? '; resuming again writes nothing' : ''}`, async () => {
      const server = await slowServer();
      try {
        const dir = tempDir(`signal-${signal}`);
        const config = writeConfig(
          dir,
          internalizeConfig(
            {
              name: 'signal',
              agent: agentAt(server.baseURL),
              maxSteps: 4,
              tasks: { split: 'train', limit: 6 },
            },
            {
              steps: 4,
              tasksPerStep: 2,
              groupSize: 4,
              validateEvery: 2,
              validation: { split: 'valid_seen', limit: 2 },
              trainer: 'external',
            },
          ),
        );
        // How many rollouts the uninterrupted run writes: the same for both signals (the config's sizes), so
        // the reference runs once.
        referenceTotal ??= (async () => {
          const reference = await cli(['run', config, '--run-dir', join(dir, 'reference'), '--json']);
          expect(reference.code, reference.err).toBe(0);
          return rollouts(join(dir, 'reference')).length;
        })();
        const total = await referenceTotal;

        const runDir = join(dir, 'runs', 'signal');
        const child = start(['run', config, '--json']);
        const done = finish(child);
        while (!existsSync(join(runDir, 'rollouts.jsonl')) || rollouts(runDir).length < 10) {
          await new Promise((r) => setTimeout(r, 5));
        }
        child.kill(signal);
        const stopped = await done;
        expect(stopped.signal).toBeNull();
        expect(stopped.code, stopped.err).toBe(code);
        expect(result(stopped)).toMatchObject({
          ok: false,
          status: 'cancelled',
          error: { code: 'SKILLRL_CANCELLED', signal },
        });
        const ends = events(runDir).filter((e) => e.type === 'run:end');
        expect(ends).toEqual([expect.objectContaining({ status: 'cancelled' })]);
        const before = rollouts(runDir).length;
        expect(before).toBeLessThan(total);

        const resumed = await cli(['resume', runDir, '--json']);
        expect(resumed.code, resumed.err).toBe(0);
        const summary = result(resumed);
        expect(summary).toMatchObject({ ok: true, status: 'completed' });
        // What was on disk was not run again.
        expect(summary.ran).toBeLessThanOrEqual(total - before);
        expect(new Set(rollouts(runDir).map((t) => t.id)).size).toBe(total);
        expect(rollouts(runDir)).toHaveLength(total);
        // What follows does not depend on the signal that stopped the run: checked once.
        if (signal !== 'SIGTERM') return;

        // A finished run: nothing new, not even the report; exit 0 with its summary.
        const files = () =>
          everyFile(runDir)
            .map((f) => `${f}:${statSync(f).size}:${statSync(f).mtimeMs}`)
            .sort();
        const snapshot = files();
        const again = await cli(['resume', runDir, '--json']);
        expect(again.code, again.err).toBe(0);
        expect(result(again)).toMatchObject({
          ok: true,
          status: 'completed',
          alreadyCompleted: true,
          ran: 0,
          metrics: summary.metrics,
        });
        const plain = await cli(['resume', runDir]);
        expect(plain.code).toBe(0);
        expect(plain.out).toContain('had already completed');
        expect(files()).toEqual(snapshot);
        expect(
          events(runDir)
            .filter((e) => e.type === 'run:end')
            .map((e) => (e as { status: string }).status),
        ).toEqual(['cancelled', 'completed']);
      } finally {
        await server.close();
      }
    }, 120_000);
  }

  it('EPIPE on stdout (`| head -1`) is quiet, and the command exits as it would have', async () => {
    const dir = tempDir('epipe');
    const config = writeConfig(dir, internalizeConfig({ name: 'epipe' }, { steps: 1 }));
    const pipe = (command: string) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn('bash', ['-o', 'pipefail', '-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += String(d);
        });
        child.stderr.on('data', (d) => {
          err += String(d);
        });
        child.on('exit', (code) => resolve({ code, out, err }));
      });
    const node = `"${process.execPath}" "${CLI}"`;
    const schema = await pipe(`${node} schema | head -1`);
    expect(schema.err).toBe('');
    expect(schema.code).toBe(0);
    expect(schema.out).toBe('{\n');
    const first = await pipe(`${node} run "${config}" | head -1`);
    // Nothing but the config's warnings (printed before the run starts): no EPIPE trace, no error.
    expect(withoutWarnings(first.err)).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^run epipe completed: /);
    // The reader is gone before the run prints anything: every write meets a closed pipe.
    const gone = await pipe(`${node} run "${config}" --run-dir "${join(dir, 'gone')}" | true`);
    expect(withoutWarnings(gone.err)).toBe('');
    expect(gone.code).toBe(0);
    expect(existsSync(join(dir, 'gone', 'summary.json'))).toBe(true);
  }, 60_000);
});
