import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { checkSchema, readRunStream } from '@skillrl/core';
import { startFakeOpenAI, startRedisServer as startRedis, type TestRedis } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyFile, finish, startCli, tempDir, writeConfig } from './support.js';

let redis: TestRedis;
const children: ChildProcess[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await redis?.stop();
});

/** The run: household SKILLC, seed 5, 12 steps of 8 tasks × 8 rollouts, validation every 6 steps. */
const householdSkillc = (name: string, extra: Record<string, unknown> = {}) => ({
  method: 'internalize',
  seed: 5,
  name,
  adapter: 'household',
  tasks: { split: 'train', limit: 32 },
  agent: 'skill-reading',
  concurrency: 8,
  internalize: {
    variant: 'skillc',
    steps: 12,
    tasksPerStep: 8,
    groupSize: 8,
    validateEvery: 6,
    validation: { split: 'valid_seen', limit: 8 },
    trainer: { name: 'tfjs', options: { lr: 0.01 } },
  },
  ...extra,
});

/** `skillrl worker` as a child process; resolves once it says it listens. Lines are kept in `lines`. */
function startWorker(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = startCli(['worker', '--redis', redis.url, ...args], { env });
  children.push(child);
  const lines: string[] = [];
  let buffer = '';
  const waiters: (() => void)[] = [];
  child.stdout?.on('data', (d) => {
    buffer += String(d);
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of waiters.splice(0)) w();
  });
  const until = (test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (test() ? resolve() : waiters.push(check));
      child.once('exit', (code) => (test() ? resolve() : reject(new Error(`worker exited ${code}`))));
      check();
    });
  return {
    child,
    lines,
    ready: until(() => lines.some((l) => l.includes('listening on queue'))),
    /** Episodes this worker finished (with --verbose, one line each). */
    episodes: () => lines.filter((l) => / reward /.test(l)).length,
    until,
  };
}

const rollouts = (dir: string) =>
  [...readRunStream<Trajectory>(dir, 'rollouts')]
    .map((t) => ({ id: t.id, reward: t.reward, passed: t.verdict.passed, error: t.error?.code }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));

const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));

describe('skillrl run with workers: rollouts on BullMQ workers in other processes', () => {
  it('two workers, one SIGKILLed mid-run and restarted: the same rollout ids, rewards and summary as in process', async () => {
    const dir = tempDir('workers');
    const inProcess = await finish(
      startCli(['run', writeConfig(dir, householdSkillc('in-process'), 'local.yaml'), '--json']),
    );
    expect(inProcess.code).toBe(0);

    const queue = 'done-when';
    // A 10 s lock rather than the 60 s default: the SIGKILLed worker's jobs run again once it lapses.
    const lock = ['--lock-duration-ms', '10000'];
    const first = startWorker(['--queue', queue, '--verbose', ...lock]);
    const second = startWorker(['--queue', queue, ...lock]);
    await Promise.all([first.ready, second.ready]);
    const config = writeConfig(
      dir,
      householdSkillc('queued', { workers: { redis: redis.url, queue } }),
      'queued.yaml',
    );
    const check = await finish(startCli(['check', config]));
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/workers: 2 listening on queue "done-when"/);

    const run = finish(startCli(['run', config, '--json']));
    // Mid-run: the first worker has finished 150 of the run's 816 episodes and is inside more.
    await first.until(() => first.episodes() >= 150);
    first.child.kill('SIGKILL');
    const restarted = startWorker(['--queue', queue, '--verbose', ...lock]);
    const queued = await run;
    expect(queued.code, queued.err).toBe(0);
    expect(first.episodes()).toBeGreaterThanOrEqual(150);
    expect(restarted.episodes()).toBeGreaterThan(0);

    const local = rollouts(join(dir, 'runs', 'in-process'));
    const remote = rollouts(join(dir, 'runs', 'queued'));
    expect(local.length).toBe(12 * 8 * 8 + 3 * 8 * 2);
    expect(remote).toEqual(local);
    expect(summaryOf(join(dir, 'runs', 'queued'))).toEqual(summaryOf(join(dir, 'runs', 'in-process')));

    // Workers stop cleanly on SIGTERM.
    second.child.kill('SIGTERM');
    restarted.child.kill('SIGTERM');
    const [a, b] = await Promise.all([finish(second.child), finish(restarted.child)]);
    expect([a.code, b.code]).toEqual([0, 0]);
  }, 240_000);

  it('with no worker the run says so on the CLI and in events, then stops with a clear error', async () => {
    const dir = tempDir('no-worker');
    const config = writeConfig(
      dir,
      householdSkillc('alone', {
        workers: { redis: redis.url, queue: 'nobody', noWorkerNoticeMs: 500, noWorkerTimeoutMs: 2500 },
      }),
    );
    const check = await finish(startCli(['check', config]));
    expect(check.code).toBe(1);
    expect(check.err).toMatch(
      /no worker listens on queue "nobody"; start one with `skillrl worker --redis <url> --queue nobody`/,
    );
    const run = await finish(startCli(['run', config]));
    // A stop that leaves a resumable run: exit 3, as the README's exit statuses say, with the command that
    // continues this very run (its directory, not a placeholder).
    const runDir = join(dir, 'runs', 'alone');
    expect(run.code, run.err).toBe(3);
    expect(run.err).toMatch(/warning: no rollout worker has listened on queue "nobody"/);
    expect(run.err).toMatch(/error: no rollout worker listened on queue "nobody" for \d+ s/);
    expect(run.err).toContain(
      `start one with \`skillrl worker --redis <url> --queue nobody\` on any machine that reaches Redis, then \`skillrl resume ${runDir}\``,
    );
    expect(run.err).not.toContain('<run-dir>');
    const events = [...readRunStream<{ type: string; status?: string }>(runDir, 'events')];
    expect(events.some((e) => e.type === 'workers' && e.status === 'no-worker')).toBe(true);
    // A typed event of core's: every line of events.jsonl passes the event schema, this one included.
    for (const e of events) expect(checkSchema('event', e)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run:end', status: 'failed' });
  }, 60_000);

  it('the session SIGKILLed mid-run and resumed: it reattaches to the queue and ends as in process', async () => {
    const dir = tempDir('workers-resume');
    const short = (name: string, extra: Record<string, unknown> = {}) => {
      const c = householdSkillc(name, extra);
      return { ...c, internalize: { ...c.internalize, steps: 4, validateEvery: 2 } };
    };
    const local = await finish(startCli(['run', writeConfig(dir, short('local'), 'local.yaml'), '--json']));
    expect(local.code).toBe(0);
    const queue = 'resume';
    const worker = startWorker(['--queue', queue, '--concurrency', '2']);
    await worker.ready;
    const config = writeConfig(dir, short('queued', { workers: { redis: redis.url, queue } }), 'queued.yaml');
    const runDir = join(dir, 'runs', 'queued');
    const session = startCli(['run', config, '--json']);
    const killed = finish(session);
    // Killed once a third of its rollouts are on disk: jobs are in flight and queued behind it.
    for (;;) {
      const n = existsSync(join(runDir, 'rollouts.jsonl'))
        ? [...readRunStream(runDir, 'rollouts')].length
        : 0;
      if (n >= 100 || session.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    session.kill('SIGKILL');
    expect((await killed).signal).toBe('SIGKILL');
    const resumed = await finish(startCli(['resume', runDir, '--json']));
    expect(resumed.code, resumed.err).toBe(0);
    expect(rollouts(runDir)).toEqual(rollouts(join(dir, 'runs', 'local')));
    expect(summaryOf(runDir)).toEqual(summaryOf(join(dir, 'runs', 'local')));
    worker.child.kill('SIGTERM');
    expect((await finish(worker.child)).code).toBe(0);
  }, 120_000);

  it("an LLM agent on workers: the API key comes from the worker's environment, never from Redis or the run directory", async () => {
    const secret = 'sk-queue-test-5f2a9c0e1d7b4a3f';
    const env = { ...process.env, SKILLRL_QUEUE_KEY: secret };
    const server = await startFakeOpenAI({ respond: () => 'Action: look' });
    try {
      const dir = tempDir('workers-secret');
      const queue = 'secret';
      const worker = startWorker(['--queue', queue, '--verbose'], env);
      await worker.ready;
      const config = writeConfig(dir, {
        method: 'internalize',
        seed: 3,
        name: 'llm',
        adapter: 'household',
        tasks: { split: 'train', limit: 4 },
        agent: {
          name: 'openai',
          options: { model: 'fake-model', baseURL: server.baseURL, apiKeyEnv: 'SKILLRL_QUEUE_KEY' },
        },
        maxSteps: 3,
        workers: { redis: redis.url, queue },
        internalize: {
          steps: 1,
          tasksPerStep: 2,
          groupSize: 2,
          validateEvery: 1,
          validation: { split: 'valid_seen', limit: 2 },
          trainer: 'external',
        },
      });
      const run = await finish(startCli(['run', config, '--json'], { env }));
      expect(run.code, run.err).toBe(0);
      expect(worker.episodes()).toBeGreaterThan(0);
      // The endpoint answered the workers' calls (the testkit keeps no auth header to look at).
      expect(server.requests.length).toBeGreaterThan(0);
      const text = await redis.contents();
      // The config blob is there (it names the variable), the key is not.
      expect(text).toContain('SKILLRL_QUEUE_KEY');
      expect(text).not.toContain(secret);
      for (const file of everyFile(join(dir, 'runs', 'llm'))) {
        expect(readFileSync(file).includes(secret), file).toBe(false);
      }
      worker.child.kill('SIGTERM');
      expect((await finish(worker.child)).code).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);
  it('a program agent on workers: each worker runs the programs behind its own proxy; the key stays in its environment', async () => {
    const secret = 'sk-queue-program-7c1d2e3f4a5b6c7d';
    const env = { ...process.env, SKILLRL_QUEUE_KEY: secret };
    const server = await startFakeOpenAI({ respond: () => 'Action: look' });
    try {
      const dir = tempDir('workers-program');
      const queue = 'program';
      const worker = startWorker(['--queue', queue, '--verbose'], env);
      await worker.ready;
      const config = writeConfig(dir, {
        method: 'internalize',
        seed: 3,
        name: 'program',
        adapter: 'household',
        tasks: { split: 'train', limit: 4 },
        agent: {
          program: {
            command: [
              process.execPath,
              join(__dirname, '../../agent-proxy/test/programs/episode-program.mjs'),
            ],
            env: { PROGRAM_MODE: 'loop' },
            upstream: {
              model: 'fake-model',
              baseURL: server.baseURL,
              apiKeyEnv: 'SKILLRL_QUEUE_KEY',
              // What internalize trains from (skillrl check refuses it without): vLLM's token ids and log-probs.
              extraBody: { return_token_ids: true, logprobs: true },
            },
          },
        },
        maxSteps: 3,
        health: { voidUnits: 0 },
        workers: { redis: redis.url, queue },
        internalize: {
          steps: 1,
          tasksPerStep: 2,
          groupSize: 2,
          validateEvery: 1,
          validation: { split: 'valid_seen', limit: 2 },
          trainer: 'external',
        },
      });
      const run = await finish(startCli(['run', config, '--json'], { env }));
      expect(run.code, run.err).toBe(0);
      expect(worker.episodes()).toBeGreaterThan(0);
      const stored = [...readRunStream<Trajectory>(join(dir, 'runs', 'program'), 'rollouts')];
      expect(stored.length).toBeGreaterThan(0);
      expect(stored.every((t) => t.error === undefined && Array.isArray(t.steps[0]?.info?.calls))).toBe(true);
      expect(stored.every((t) => (t.steps[0]?.tokenIds?.length ?? 0) > 0)).toBe(true);
      expect(stored.every((t) => (t.steps[0]?.logProbs?.length ?? 0) > 0)).toBe(true);
      expect(await redis.contents()).not.toContain(secret);
      for (const file of everyFile(join(dir, 'runs', 'program'))) {
        expect(readFileSync(file).includes(secret), file).toBe(false);
      }
      worker.child.kill('SIGTERM');
      expect((await finish(worker.child)).code).toBe(0);
    } finally {
      await server.close();
    }
  }, 90_000);
});
