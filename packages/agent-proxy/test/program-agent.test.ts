import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Skill, Task } from '@skillrl/core';
import { runEpisode } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { createQaAdapter } from '@skillrl/task-qa';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProgramAgent, type ProgramAgent, ProgramError } from '../src/index.js';
import { programCallsOf } from '../src/program/program-calls.js';

const here = dirname(fileURLToPath(import.meta.url));
const PROGRAM = join(here, 'programs', 'episode-program.mjs');
const KEY = 'sk-upstream-secret-0123456789abcdef';

/** Replies from the request's content alone: an admissible action chosen by a hash of the last message. */
function respond(request: FakeChatRequest): string {
  const last = String(request.messages?.at(-1)?.content ?? '');
  const list = /Admissible actions:\n([\s\S]*)$/.exec(last)?.[1]?.split('\n').filter(Boolean) ?? [];
  if (list.length === 0) return 'Action: 42';
  let h = 0;
  for (const ch of last) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const useful = list.filter((a) => a !== 'look' && a !== 'inventory' && !a.startsWith('examine'));
  const pool = useful.length > 0 ? useful : list;
  return `Action: ${pool[h % pool.length]}`;
}

let fake: FakeOpenAIServer;
const agents: ProgramAgent[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond, seed: 3 });
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function agentWith(mode: string, extra: Partial<Parameters<typeof createProgramAgent>[0]> = {}) {
  const agent = createProgramAgent({
    command: [process.execPath, PROGRAM],
    env: { PROGRAM_MODE: mode, ...(extra.env ?? {}) },
    timeoutMs: 20_000,
    upstream: { model: 'fake-model', baseURL: fake.baseURL, apiKeyEnv: 'FAKE_UPSTREAM_KEY' },
    processEnv: { ...process.env, FAKE_UPSTREAM_KEY: KEY },
    ...extra,
  });
  agents.push(agent);
  return agent;
}

async function householdTask(): Promise<Task> {
  const [task] = await household.load({ split: 'train', limit: 1, seed: 5 });
  return task as Task;
}

async function playHousehold(agent: ProgramAgent, task: Task, skill?: Skill, id = 'ep-1', maxSteps = 8) {
  return runEpisode({
    agent,
    env: await household.createEnvironment(task),
    task,
    verifier: household.verifier(task),
    ...(skill ? { skill, condition: 1 as const } : { condition: 0 as const }),
    maxSteps,
    id,
  });
}

describe('the program agent: any program plays the episode through MCP and the recording proxy', () => {
  it('household: each MCP act is a step of the one episode runner, carrying the model calls made for it', async () => {
    const task = await householdTask();
    const t = await playHousehold(agentWith('loop'), task, undefined, 'loop-1', 6);
    expect(t.error).toBeUndefined();
    expect(t.steps.length).toBeGreaterThan(0);
    for (const step of t.steps) {
      const calls = step.info?.calls as unknown[] | undefined;
      expect(calls?.length, JSON.stringify(step.info)).toBeGreaterThanOrEqual(1);
      expect(step.info?.chat).toBeDefined();
      expect(step.action).not.toBe('');
    }
    // The recorded turns expand to the messages the program sent, in order.
    const turns = programCallsOf(t.steps);
    expect(turns.length).toBe(t.steps.length);
    expect(String(turns[0]?.messages.at(-1)?.content)).toContain('skill folder: none');
    expect(String(turns[0]?.messages.at(-1)?.content)).toContain('upstream key visible: no');
    // Usage from the proxy's records sums into the trajectory.
    expect(t.usage?.inputTokens).toBeGreaterThan(0);
  }, 60_000);

  it('z = 0 never sends the skill upstream; z = 1 injects it and gives the program the Agent Skills folder', async () => {
    const task = await householdTask();
    const skill: Skill = {
      name: 'careful-household',
      description: 'How to finish household tasks.',
      body: 'UNIQUE-SKILL-MARKER-7731: first find the object, then take it, then put it.',
    };
    const before = fake.requests.length;
    const without = await playHousehold(agentWith('loop'), task, undefined, 'z0-ep', 3);
    const z0 = fake.requests.slice(before).map((r: { body: unknown }) => JSON.stringify(r.body));
    expect(without.error).toBeUndefined();
    expect(z0.length).toBeGreaterThan(0);
    for (const body of z0) expect(body).not.toContain('UNIQUE-SKILL-MARKER-7731');

    const mid = fake.requests.length;
    const withSkill = await playHousehold(agentWith('loop'), task, skill, 'z1-ep', 3);
    const z1 = fake.requests.slice(mid).map((r: { body: unknown }) => JSON.stringify(r.body));
    expect(withSkill.error).toBeUndefined();
    expect(z1.length).toBeGreaterThan(0);
    for (const body of z1) expect(body).toContain('UNIQUE-SKILL-MARKER-7731');
    expect(String(programCallsOf(withSkill.steps)[0]?.messages.at(-1)?.content)).toContain(
      'skill folder: careful-household',
    );
    // The trajectory records the program's own messages (the skill was the proxy's addition).
    expect(withSkill.skill?.name).toBe('careful-household');
  }, 60_000);

  it('the real key reaches neither the program, the trajectory nor an error', async () => {
    const task = await householdTask();
    const t = await playHousehold(agentWith('loop'), task, undefined, 'key-ep', 2);
    expect(JSON.stringify(t)).not.toContain(KEY);
    // The fake saw the real key on every call (it was sent upstream), the program never did.
    expect(String(programCallsOf(t.steps)[0]?.messages.at(-1)?.content)).toContain(
      'upstream key visible: no',
    );
  }, 60_000);

  it('QA: the last stdout line {"answer": ...} is the answer, verified as a built-in agent is', async () => {
    const qa = createQaAdapter({ families: ['arithmetic'] });
    const [task] = await qa.load({ split: 'train', limit: 1, seed: 1 });
    const t = await runEpisode({
      agent: agentWith('qa-answer'),
      env: await qa.createEnvironment(task as Task),
      task: task as Task,
      verifier: qa.verifier(task as Task),
      condition: 0,
      id: 'qa-1',
    });
    expect(t.error).toBeUndefined();
    expect(t.answer).toBe('42');
    expect(t.steps).toHaveLength(1);
    expect(t.steps[0]?.info?.stdoutAnswer).toBe(true);
    expect(t.verdict.passed).toBe((task as Task).answer === '42');
  }, 60_000);

  it('the task file holds the task as an agent sees it: no answer, no verifier metadata', async () => {
    const qa = createQaAdapter({ families: ['arithmetic'] });
    const [task] = await qa.load({ split: 'train', limit: 1, seed: 1 });
    expect((task as Task).answer).toBeDefined();
    const t = await runEpisode({
      agent: agentWith('cheat'),
      env: await qa.createEnvironment(task as Task),
      task: task as Task,
      verifier: qa.verifier(task as Task),
      condition: 0,
      id: 'cheat-1',
    });
    expect(t.answer).toBe('answer:none metadata:none');
  }, 60_000);

  it('a crash is an errored episode with the stderr tail, never a scored failure', async () => {
    const task = await householdTask();
    const t = await playHousehold(agentWith('crash'), task, undefined, 'crash-ep');
    expect(t.error?.code).toBe('model');
    expect(t.error?.message).toContain('exited with code 3');
    expect(t.error?.message).toContain('boom: the program failed on purpose');
    expect(t.error?.message).toContain('agent.program.command');
  }, 60_000);

  it('a timeout kills the whole process group and errors the episode', async () => {
    const task = await householdTask();
    const pids = join(mkdtempSync(join(tmpdir(), 'skillrl-pids-')), 'pids');
    dirs.push(dirname(pids));
    const agent = agentWith('hang', { timeoutMs: 1500, env: { PROGRAM_MODE: 'hang', PROGRAM_PIDS: pids } });
    const started = Date.now();
    const t = await playHousehold(agent, task, undefined, 'hang-ep');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(t.error?.code).toBe('model');
    expect(t.error?.message).toContain('agent.program.timeoutMs');
    const pid = Number(readFileSync(pids, 'utf8').trim());
    expect(alive(pid)).toBe(false);
  }, 60_000);

  it('garbage on the last stdout line, and a program that never calls the model, are typed errors naming the fix', async () => {
    const task = await householdTask();
    const garbage = await playHousehold(agentWith('garbage'), task, undefined, 'garbage-ep');
    expect(garbage.error?.message).toContain('{this is not json');
    expect(garbage.error?.message).toContain('print {"answer": ...} as the last line');
    const silent = await playHousehold(agentWith('no-call'), task, undefined, 'silent-ep');
    expect(silent.error?.message).toContain('no model call through OPENAI_BASE_URL');
  }, 60_000);

  it('an upstream that refuses every call errors the episode (the health budget counts it)', async () => {
    const refusing = await startFakeOpenAI({ respond, faults: { plan: () => 'unauthorized' } });
    try {
      const task = await householdTask();
      const agent = createProgramAgent({
        command: [process.execPath, PROGRAM],
        env: { PROGRAM_MODE: 'loop' },
        timeoutMs: 20_000,
        upstream: { model: 'fake-model', baseURL: refusing.baseURL, retry: { maxRetries: 0 } },
      });
      agents.push(agent);
      const t = await playHousehold(agent, task, undefined, 'refused-ep');
      expect(t.error?.code).toBe('model');
      expect(t.error?.message).toContain('agent.program.upstream');
    } finally {
      await refusing.close();
    }
  }, 60_000);

  it('a module function is a program too: run(task, ctx) with the proxy and MCP in ctx', async () => {
    const qa = createQaAdapter({ families: ['arithmetic'] });
    const [task] = await qa.load({ split: 'train', limit: 1, seed: 2 });
    const seen: string[] = [];
    const agent = createProgramAgent({
      run: async (t, ctx) => {
        seen.push(ctx.mcpUrl, String(ctx.condition));
        const res = await fetch(`${ctx.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.apiKey}` },
          body: JSON.stringify({ messages: [{ role: 'user', content: t.prompt }] }),
        });
        const body = (await res.json()) as { choices: { message: { content: string } }[] };
        return body.choices[0]?.message.content.replace('Action: ', '');
      },
      upstream: { model: 'fake-model', baseURL: fake.baseURL },
    });
    agents.push(agent);
    const t = await runEpisode({
      agent,
      env: await qa.createEnvironment(task as Task),
      task: task as Task,
      verifier: qa.verifier(task as Task),
      condition: 0,
      id: 'fn-1',
    });
    expect(t.error).toBeUndefined();
    expect(t.answer).toBe('42');
    expect(seen[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(t.steps[0]?.info?.calls).toHaveLength(1);
  }, 60_000);

  it('a command that cannot be started names agent.program.command', async () => {
    expect(() => createProgramAgent({ command: [], upstream: { model: 'm' } })).toThrow(
      /agent\.program\.command/,
    );
    const task = await householdTask();
    const agent = createProgramAgent({
      command: ['/nonexistent/agent-binary'],
      upstream: { model: 'fake-model', baseURL: fake.baseURL },
    });
    agents.push(agent);
    const t = await playHousehold(agent, task, undefined, 'spawn-ep');
    expect(t.error?.message).toContain('could not be started');
    expect(ProgramError.name).toBe('ProgramError');
  }, 60_000);
});

describe('reuse: one process kept between episodes (episodes on stdin, results on stdout)', () => {
  it('sequential episodes share one process; concurrent ones get one each; answers come back per episode', async () => {
    const pids = join(mkdtempSync(join(tmpdir(), 'skillrl-pids-')), 'pids');
    dirs.push(dirname(pids));
    const agent = agentWith('loop', { reuse: true, env: { PROGRAM_MODE: 'loop', PROGRAM_PIDS: pids } });
    const task = await householdTask();
    for (const id of ['r1', 'r2', 'r3']) {
      const t = await playHousehold(agent, task, undefined, id, 3);
      expect(t.error, id).toBeUndefined();
      expect(t.steps.length).toBeGreaterThan(0);
    }
    expect(readFileSync(pids, 'utf8').trim().split('\n')).toHaveLength(1);
    const together = await Promise.all(
      ['c1', 'c2', 'c3'].map((id) => playHousehold(agent, task, undefined, id, 3)),
    );
    expect(together.every((t) => t.error === undefined)).toBe(true);
    expect(readFileSync(pids, 'utf8').trim().split('\n')).toHaveLength(3);
    const qa = createQaAdapter({ families: ['arithmetic'] });
    const [q] = await qa.load({ split: 'train', limit: 1, seed: 1 });
    const answerer = agentWith('qa-answer', { reuse: true });
    const answered = await runEpisode({
      agent: answerer,
      env: await qa.createEnvironment(q as Task),
      task: q as Task,
      verifier: qa.verifier(q as Task),
      condition: 0,
      id: 'reuse-qa',
    });
    expect(answered.answer).toBe('42');
  }, 60_000);

  it('a reused program that crashes errors its episode and is replaced for the next', async () => {
    const pids = join(mkdtempSync(join(tmpdir(), 'skillrl-pids-')), 'pids');
    dirs.push(dirname(pids));
    const agent = agentWith('crash', { reuse: true, env: { PROGRAM_MODE: 'crash', PROGRAM_PIDS: pids } });
    const task = await householdTask();
    const first = await playHousehold(agent, task, undefined, 'rc1', 3);
    const second = await playHousehold(agent, task, undefined, 'rc2', 3);
    for (const t of [first, second]) {
      expect(t.error?.message).toContain('exited with code 3');
      expect(t.error?.message).toContain('boom');
    }
    expect(readFileSync(pids, 'utf8').trim().split('\n')).toHaveLength(2);
  }, 60_000);
});

/** Running: signalable and not a zombie (a killed process whose reaper died waits for PID 1 to reap it). */
function alive(pid: number): boolean {
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
}
