import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunStream } from '@skillrl/core';
import { startRedisServer as startRedis, type TestRedis } from '@skillrl/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, everyFile, finish, refusedPort, startCli, tempDir, writeConfig } from './support.js';

const servers: TestRedis[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.stop()));
});

/** Household SKILLC with the trained skill-reading policy: long enough to lose Redis in the middle. */
const householdSkillc = (name: string, workers: Record<string, unknown>) => ({
  method: 'internalize',
  seed: 5,
  name,
  adapter: 'household',
  tasks: { split: 'train', limit: 32 },
  agent: 'skill-reading',
  concurrency: 8,
  workers,
  internalize: {
    variant: 'skillc',
    steps: 6,
    tasksPerStep: 8,
    groupSize: 8,
    validateEvery: 3,
    validation: { split: 'valid_seen', limit: 8 },
    trainer: { name: 'tfjs', options: { lr: 0.01 } },
  },
});

/** `skillrl <args>` as a child, kept for cleanup, with its output collected from the start. */
function cli(args: string[]): { child: ChildProcess; run: Promise<CliRun> } {
  const child = startCli(args);
  children.push(child);
  return { child, run: finish(child) };
}

/** `skillrl worker` as a child; `ready` once it listens, `stderr()` what it warned so far. */
function startWorker(url: string, queue: string) {
  const { child, run } = cli(['worker', '--redis', url, '--queue', queue, '--verbose']);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const until = (test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (test()) {
          clearInterval(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`worker exited ${child.exitCode}: ${err}`));
        }
      }, 20);
    });
  const ready = until(() => out.includes('listening on queue'));
  // A worker that never listens (Redis refused) and is then stopped rejects this; tests that wait on it see it.
  ready.catch(() => {});
  return {
    child,
    run,
    stdout: () => out,
    stderr: () => err,
    ready,
    until,
  };
}

// Every layout (plain file, or segments once the run closed); nothing before the run directory exists.
const events = (dir: string) =>
  existsSync(dir) ? [...readRunStream<{ type: string; status?: string; error?: string }>(dir, 'events')] : [];
const rolloutCount = (dir: string) => (existsSync(dir) ? [...readRunStream(dir, 'rollouts')].length : 0);

async function until(test: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Exit status and how long after `from` the child exited. */
async function exitAfter(run: Promise<CliRun>, from: () => number): Promise<CliRun & { ms: number }> {
  const result = await run;
  return { ...result, ms: Date.now() - from() };
}

const lines = (text: string, pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l)).length;

describe('skillrl run with workers when Redis cannot be reached', () => {
  it('refused at the start: exit 3 after connectTimeoutMs, the URL named without its password, run:end failed, the real resume command', async () => {
    const dir = tempDir('redis-refused');
    const port = await refusedPort();
    const password = 'pw-redis-9f3b1c7e';
    const config = writeConfig(
      dir,
      householdSkillc('refused', {
        redis: `redis://skillrl:${password}@127.0.0.1:${port}`,
        connectTimeoutMs: 1500,
      }),
    );
    const runDir = join(dir, 'runs', 'refused');
    const started = Date.now();
    const { run } = cli(['run', config]);
    const result = await exitAfter(run, () => started);
    expect(result.code, result.err).toBe(3);
    expect(result.err).toContain(
      `error: Redis at redis://skillrl:***@127.0.0.1:${port} (workers.redis) could not be reached for`,
    );
    expect(result.err).toContain('ECONNREFUSED');
    expect(result.err).toContain(`then \`skillrl resume ${runDir}\``);
    expect(result.err + result.out).not.toContain(password);
    for (const file of everyFile(runDir)) expect(readFileSync(file, 'utf8'), file).not.toContain(password);
    const written = events(runDir);
    expect(written[0]).toMatchObject({ type: 'run:start' });
    expect(written.at(-1)).toMatchObject({ type: 'run:end', status: 'failed' });
    expect(written.at(-1)?.error).toContain(`skillrl resume ${runDir}`);
    // connectTimeoutMs, plus the CLI's start; it hung for good before.
    expect(result.ms).toBeGreaterThanOrEqual(1500);
    expect(result.ms).toBeLessThan(20_000);
    console.log(`refused at start: exit 3 after ${result.ms} ms (connectTimeoutMs 1500, CLI start included)`);
  }, 60_000);

  it('SIGTERM, then SIGINT, while waiting on a refused Redis: honoured at once, run:end cancelled, 143 and 130', async () => {
    const port = await refusedPort();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const dir = tempDir(`redis-${signal}`);
      const config = writeConfig(
        dir,
        householdSkillc('waiting', { redis: `redis://127.0.0.1:${port}`, connectTimeoutMs: 600_000 }),
      );
      const runDir = join(dir, 'runs', 'waiting');
      const { child, run } = cli(['run', config]);
      // The run has started and waits on Redis (its first call, the components blob).
      await until(() => events(runDir).some((e) => e.type === 'run:start'), 'run:start');
      await new Promise((r) => setTimeout(r, 500));
      const sent = Date.now();
      child.kill(signal);
      const result = await exitAfter(run, () => sent);
      expect(result.code, result.err).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(result.err).toContain(`cancelled by ${signal}`);
      expect(result.err).toContain(`skillrl resume ${runDir}`);
      expect(events(runDir).at(-1)).toMatchObject({ type: 'run:end', status: 'cancelled' });
      expect(result.ms).toBeLessThan(2000);
      console.log(`${signal} while Redis refused: exit ${result.code} ${result.ms} ms after the signal`);
    }
  }, 60_000);

  it('a worker whose Redis refuses from its start: one line of ECONNREFUSED, and SIGTERM stops it within 2 s', async () => {
    const port = await refusedPort();
    const worker = startWorker(`redis://127.0.0.1:${port}`, 'never');
    await worker.until(() => worker.stderr().includes('ECONNREFUSED'));
    // Two seconds of reconnecting (about six attempts on each of its connections).
    await new Promise((r) => setTimeout(r, 2000));
    expect(lines(worker.stderr(), /ECONNREFUSED/)).toBe(1);
    const sent = Date.now();
    worker.child.kill('SIGTERM');
    const stopped = await exitAfter(worker.run, () => sent);
    expect(stopped.code, stopped.err).toBe(0);
    expect(stopped.ms).toBeLessThan(2000);
    expect(worker.stdout()).toContain(
      `SIGTERM: Redis at redis://127.0.0.1:${port} is unreachable: stopping now`,
    );
    console.log(`worker SIGTERM, Redis refused from its start: exit 0 ${stopped.ms} ms after the signal`);
  }, 30_000);

  it('Redis killed mid-run: the run exits 3 after connectTimeoutMs; a worker sent SIGTERM meanwhile stops within 2 s; Redis back, the run resumes to the end', async () => {
    const redis = await startRedis();
    servers.push(redis);
    const queue = 'killed';
    const [keeper, leaver] = [startWorker(redis.url, queue), startWorker(redis.url, queue)];
    await Promise.all([keeper.ready, leaver.ready]);
    const dir = tempDir('redis-killed');
    const config = writeConfig(
      dir,
      householdSkillc('killed', { redis: redis.url, queue, connectTimeoutMs: 2000 }),
    );
    const runDir = join(dir, 'runs', 'killed');
    const { run } = cli(['run', config]);
    await until(() => rolloutCount(runDir) >= 80, '80 rollouts on disk');
    await redis.stop();
    const killed = Date.now();
    const result = await exitAfter(run, () => killed);
    expect(result.code, result.err).toBe(3);
    expect(result.err).toContain(`error: Redis at ${redis.url} (workers.redis) could not be reached for`);
    expect(result.err).toContain(`then \`skillrl resume ${runDir}\``);
    expect(events(runDir).at(-1)).toMatchObject({ type: 'run:end', status: 'failed' });
    expect(result.ms).toBeGreaterThanOrEqual(2000);
    // Typically about 2.4 s (connectTimeoutMs 2000 and the CLI's exit); the bound is 5× that: it hung for good
    // before, and the test is about "within seconds", not about how fast.
    expect(result.ms).toBeLessThan(12_000);
    console.log(`Redis killed mid-run: exit 3 ${result.ms} ms after the kill (connectTimeoutMs 2000)`);

    // A worker whose Redis is gone: it said so once (no ECONNREFUSED four times a second), and SIGTERM
    // stops it at once with a message.
    await new Promise((r) => setTimeout(r, 1000));
    expect(leaver.stderr()).toContain(`Redis at ${redis.url} is unreachable`);
    expect(lines(leaver.stderr(), /ECONNREFUSED/)).toBeLessThanOrEqual(2);
    const sent = Date.now();
    leaver.child.kill('SIGTERM');
    const stopped = await exitAfter(leaver.run, () => sent);
    expect(stopped.code, stopped.err).toBe(0);
    expect(stopped.ms).toBeLessThan(2000);
    expect(leaver.stdout()).toContain(`SIGTERM: Redis at ${redis.url} is unreachable: stopping now`);
    expect(leaver.stdout()).toContain('worker stopped');
    console.log(`worker SIGTERM with Redis down: exit 0 ${stopped.ms} ms after the signal`);

    // Redis back (empty: no persistence); the other worker reconnects by itself and the run resumes.
    await redis.restart();
    await keeper.until(() => keeper.stderr().includes('reachable again'));
    const resumed = await cli(['resume', runDir]).run;
    expect(resumed.code, resumed.err).toBe(0);
    expect(events(runDir).at(-1)).toMatchObject({ type: 'run:end', status: 'completed' });
    expect(rolloutCount(runDir)).toBe(6 * 8 * 8 + 3 * 8 * 2);
    keeper.child.kill('SIGTERM');
    expect((await keeper.run).code).toBe(0);
  }, 180_000);

  it('Redis killed mid-run and SIGINT while it is down: honoured at once, run:end cancelled, exit 130', async () => {
    const redis = await startRedis();
    servers.push(redis);
    const queue = 'killed-then-sigint';
    const worker = startWorker(redis.url, queue);
    await worker.ready;
    const dir = tempDir('redis-killed-sigint');
    const config = writeConfig(
      dir,
      householdSkillc('interrupted', { redis: redis.url, queue, connectTimeoutMs: 600_000 }),
    );
    const runDir = join(dir, 'runs', 'interrupted');
    const { child, run } = cli(['run', config]);
    await until(() => rolloutCount(runDir) >= 40, '40 rollouts on disk');
    await redis.stop();
    await new Promise((r) => setTimeout(r, 1500));
    const sent = Date.now();
    child.kill('SIGINT');
    const result = await exitAfter(run, () => sent);
    expect(result.code, result.err).toBe(130);
    expect(result.err).toContain(
      `cancelled by SIGINT: the run stopped cleanly (run:end cancelled); continue it with \`skillrl resume ${runDir}\``,
    );
    expect(events(runDir).at(-1)).toMatchObject({ type: 'run:end', status: 'cancelled' });
    expect(result.ms).toBeLessThan(2000);
    console.log(`SIGINT with Redis killed mid-run: exit 130 ${result.ms} ms after the signal`);
    worker.child.kill('SIGTERM');
    expect((await worker.run).code).toBe(0);
  }, 120_000);
});
