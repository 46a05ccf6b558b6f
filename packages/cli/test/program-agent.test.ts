import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { readRunStream } from '@skillrl/core';
import { type FakeChatRequest, startFakeOpenAI } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import { evolveConfig, finish, startCli, tempDir, writeConfig } from './support.js';

// The program agent through the built CLI, as a user meets it: a program (here a Node script using the MCP
// SDK and fetch, as any language could) is the task model behind the recording proxy.
const PROGRAM = resolve(__dirname, '../../agent-proxy/test/programs/episode-program.mjs');

/** Replies from the request's content alone (so any rerun answers the same): an admissible action by hash. */
function respond(request: FakeChatRequest): string {
  const last = String(request.messages?.at(-1)?.content ?? '');
  const list = /Admissible actions:\n([\s\S]*)$/.exec(last)?.[1]?.split('\n').filter(Boolean) ?? [];
  if (list.length === 0) return 'Action: 42';
  let h = 0;
  for (const ch of JSON.stringify(request.messages)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `Action: ${list[h % list.length]}`;
}

function programConfig(baseURL: string, name: string, env: Record<string, string> = {}) {
  return evolveConfig(
    {
      name,
      tasks: { split: 'train', limit: 2 },
      maxSteps: 4,
      concurrency: 3,
      agent: {
        program: {
          command: [process.execPath, PROGRAM],
          env: { PROGRAM_MODE: 'loop', ...env },
          timeoutMs: 30_000,
          upstream: { model: 'fake-model', baseURL, apiKeyEnv: 'PROGRAM_TEST_KEY' },
        },
      },
    },
    { generations: 2, candidates: 2, episodes: 2 },
  );
}

const env = { ...process.env, PROGRAM_TEST_KEY: 'sk-program-test-key-abcdef0123456789' };
const records = <T>(dir: string, stream: string): T[] => [...readRunStream<T>(dir, stream)];
/** Running: signalable and not a zombie (a killed process whose reaper died waits for PID 1 to reap it). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

function outcome(run: string) {
  return records<Trajectory>(run, 'rollouts')
    .map((t) => ({
      id: t.id,
      reward: t.reward,
      passed: t.verdict.passed,
      actions: t.steps.map((s) => s.action),
      skill: t.skill?.hash ?? null,
      error: t.error?.code ?? null,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

describe('agent: { program } through the CLI', () => {
  it('check reports the program agent ready; a missing upstream model is named', async () => {
    const fake = await startFakeOpenAI({ respond });
    try {
      const dir = tempDir('program-check');
      const ok = writeConfig(dir, programConfig(fake.baseURL, 'check-ok'));
      const checked = await finish(startCli(['check', ok, '--json'], { env }));
      expect(checked.code, checked.out + checked.err).toBe(0);
      const bad = programConfig(fake.baseURL, 'check-bad');
      delete (bad.agent as unknown as { program: { upstream: { model?: string } } }).program.upstream.model;
      const badCheck = await finish(
        startCli(['check', writeConfig(dir, bad, 'bad.yaml'), '--json'], { env }),
      );
      expect(badCheck.code).toBe(1);
      expect(badCheck.out).toContain('agent.program.upstream');
      // An upstream nobody listens on, and a script that is not there, are named by check (a run is not started).
      const down = programConfig('http://127.0.0.1:9/v1', 'check-down');
      const downCheck = await finish(
        startCli(['check', writeConfig(dir, down, 'down.yaml'), '--json'], { env }),
      );
      expect(downCheck.code).toBe(1);
      expect(downCheck.out).toMatch(/127\.0\.0\.1:9\/v1 cannot be reached/);
      const missing = programConfig(fake.baseURL, 'check-missing');
      (missing.agent as unknown as { program: { command: string[] } }).program.command = [
        'node',
        'no-such-agent.mjs',
      ];
      const missingCheck = await finish(
        startCli(['check', writeConfig(dir, missing, 'missing.yaml'), '--json'], { env }),
      );
      expect(missingCheck.code).toBe(1);
      expect(missingCheck.out).toContain('no-such-agent.mjs does not exist');
      // Internalize trains from token ids: an upstream not asked for them is refused by check.
      const untrainable = {
        ...programConfig(fake.baseURL, 'check-internalize'),
        method: 'internalize',
        evolve: undefined,
        internalize: { steps: 1, tasksPerStep: 1, groupSize: 2, trainer: 'external' },
      };
      const trainCheck = await finish(
        startCli(
          ['check', writeConfig(dir, JSON.parse(JSON.stringify(untrainable)), 'train.yaml'), '--json'],
          { env },
        ),
      );
      expect(trainCheck.code).toBe(1);
      expect(trainCheck.out).toContain('return_token_ids');
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('Skill-R1 evolve with a program as the frozen task model; SIGKILL kills every program, resume equals the uninterrupted run', async () => {
    const fake = await startFakeOpenAI({ respond });
    try {
      const dir = tempDir('program-kill');
      const reference = await finish(
        startCli(['run', writeConfig(dir, programConfig(fake.baseURL, 'ref'), 'ref.yaml'), '--json'], {
          env,
        }),
      );
      expect(reference.code, reference.out + reference.err).toBe(0);
      const refRun = join(dir, 'runs', 'ref');
      const expected = outcome(refRun);
      expect(expected.length).toBeGreaterThan(8);
      expect(expected.every((r) => r.error === null)).toBe(true);
      // The calls are in the rollouts, the key is nowhere in the run directory.
      const first = records<Trajectory>(refRun, 'rollouts')[0];
      expect(Array.isArray(first?.steps[0]?.info?.calls)).toBe(true);
      for (const stream of ['rollouts', 'events']) {
        expect(JSON.stringify(records(refRun, stream))).not.toContain(env.PROGRAM_TEST_KEY);
      }
      expect(readFileSync(join(refRun, 'config.json'), 'utf8')).not.toContain(env.PROGRAM_TEST_KEY);

      const pids = join(dir, 'pids');
      const killedConfig = writeConfig(
        dir,
        programConfig(fake.baseURL, 'killed', { PROGRAM_PIDS: pids }),
        'k.yaml',
      );
      const run = join(dir, 'runs', 'killed');
      const child = startCli(['run', killedConfig, '--json'], { env });
      const done = finish(child);
      const half = Math.floor(expected.length / 2);
      for (let i = 0; i < 3000; i++) {
        if (existsSync(run) && records(run, 'rollouts').length >= half) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGKILL');
      await done;
      // Every program started by the killed session dies with it (its reaper sees the pipe close).
      const started = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
      expect(started.length).toBeGreaterThan(0);
      let survivors = started.filter(alive);
      for (let i = 0; i < 100 && survivors.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        survivors = started.filter(alive);
      }
      expect(survivors).toEqual([]);
      const resumed = await finish(startCli(['resume', run, '--json'], { env }));
      expect(resumed.code, resumed.out + resumed.err).toBe(0);
      expect(outcome(run)).toEqual(expected);
    } finally {
      await fake.close();
    }
  }, 180_000);

  it('a program that crashes on every episode stops the run with exit 3, the stderr tail in the rollouts', async () => {
    const fake = await startFakeOpenAI({ respond });
    try {
      const dir = tempDir('program-crash');
      const config = writeConfig(dir, programConfig(fake.baseURL, 'crash', { PROGRAM_MODE: 'crash' }));
      const run = await finish(startCli(['run', config, '--json'], { env }));
      expect(run.code, run.out + run.err).toBe(3);
      expect(run.out + run.err).toMatch(/exited with code 3/);
      const rollouts = records<Trajectory>(join(dir, 'runs', 'crash'), 'rollouts');
      expect(rollouts.length).toBeGreaterThan(0);
      expect(rollouts.every((t) => t.error?.message.includes('boom: the program failed on purpose'))).toBe(
        true,
      );
    } finally {
      await fake.close();
    }
  }, 120_000);
});
