import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Environment,
  type Skill,
  type Task,
  type TaskAdapter,
  type Trajectory,
  type Verifier,
  validate,
} from '@skillrl/core';
import {
  FAULT_KINDS,
  type FakeChatRequest,
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAI,
} from '@skillrl/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenAIAgent, type OpenAIAgentOptions } from '../agent/create-openai-agent.js';
import { collectRollouts } from './collect-rollouts.js';
import { planRollouts } from './plan-rollouts.js';

/** A question-answering adapter written against the core contract: "What is a + b?", one answer per episode. */
function arithmeticAdapter(count: number): TaskAdapter & { tasks: Task[] } {
  const tasks: Task[] = Array.from({ length: count }, (_, i) => {
    const a = (i * 7) % 23;
    const b = (i * 11) % 17;
    return {
      id: `add-${i}`,
      family: i % 2 ? 'odd' : 'even',
      split: 'test',
      prompt: `What is ${a} + ${b}?`,
      answer: a + b,
    };
  });
  const exact: Verifier = {
    name: 'exact',
    verify: (task, t) => {
      const ok = t.answer === String(task.answer);
      return {
        score: ok ? 1 : 0,
        passed: ok,
        reason: ok ? 'exact match' : `expected ${String(task.answer)}`,
      };
    },
  };
  return {
    name: 'arithmetic',
    families: ['even', 'odd'],
    tasks,
    load: () => tasks,
    verifier: () => exact,
    createEnvironment(task): Environment {
      return {
        // Two steps so that an invalid reply (a malformed tool call in text mode) can be corrected.
        maxSteps: 2,
        reset: () => 'Answer with the number only.',
        step: (action) => ({
          observation: action === String(task.answer) ? 'Correct.' : 'Wrong.',
          reward: action === String(task.answer) ? 1 : 0,
          done: true,
        }),
      };
    },
  };
}

const skill: Skill = {
  name: 'careful-addition',
  description: 'Add carefully.',
  body: 'Add the units, then the tens.',
};

/**
 * The fake model: answers the sum, but without the skill in its prompt it is off by one whenever the
 * request's seed is divisible by 3, so condition 1 must score higher than condition 0.
 */
function arithmeticModel(request: FakeChatRequest): FakeReply {
  const text = (request.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');
  const match = /What is (\d+) \+ (\d+)\?/.exec(text);
  if (!match) return 'I do not know.';
  const sum = Number(match[1]) + Number(match[2]);
  const skilled = text.includes('careful-addition');
  const seed = typeof request.seed === 'number' ? request.seed : 0;
  return `The sum is <action>${skilled || seed % 3 !== 0 ? sum : sum + 1}</action>`;
}

const cacheDir = mkdtempSync(join(tmpdir(), 'skillrl-rollout-cache-'));
const servers: FakeOpenAIServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(cacheDir, { recursive: true, force: true });
});

const agentOptions = (
  server: FakeOpenAIServer,
  extra: Partial<OpenAIAgentOptions> = {},
): OpenAIAgentOptions => ({
  model: 'fake',
  baseURL: server.baseURL,
  apiKey: 'sk-test-rollout-key-0001',
  timeoutMs: 5000,
  retry: { maxRetries: 6, baseDelayMs: 5, maxDelayMs: 40 },
  logprobs: true,
  ...extra,
});

const keyOf = (t: Trajectory) => `${t.taskId}|${t.condition}|${t.index}`;
const sortedJson = (ts: Trajectory[]) => JSON.stringify([...ts].sort((a, b) => (a.id < b.id ? -1 : 1)));

describe('collectRollouts: question answering under faults', () => {
  const adapter = arithmeticAdapter(50);
  const firstRun: Trajectory[] = [];
  let server: FakeOpenAIServer;

  it('runs 200 episodes under 10% injected faults, losing and duplicating none', async () => {
    server = await startFakeOpenAI({
      respond: arithmeticModel,
      latencyMs: [1, 15],
      seed: 1,
      faults: { rate: 0.1, retryAfterMs: 10 },
    });
    servers.push(server);
    const agent = createOpenAIAgent(agentOptions(server, { cache: cacheDir }));
    const seen: string[] = [];
    const run = collectRollouts({
      tasks: adapter.tasks,
      adapter,
      agent,
      skills: skill,
      groupSize: 4,
      pairing: { rho: 0.5 },
      concurrency: 32,
      seed: 7,
      onTrajectory: (t) => {
        seen.push(t.id);
      },
    });
    expect(run.plan).toHaveLength(200);
    for await (const t of run) firstRun.push(t);

    // Every task × condition × index exactly once, and exactly the planned episodes.
    expect(firstRun).toHaveLength(200);
    expect(new Set(firstRun.map(keyOf)).size).toBe(200);
    expect(new Set(firstRun.map((t) => t.id))).toEqual(new Set(run.plan.map((e) => e.id)));
    expect(seen).toEqual(firstRun.map((t) => t.id));
    for (const t of firstRun) validate('trajectory', t);
    // ρ = 0.5 of 4: two with the skill and two without in every group.
    for (const task of adapter.tasks) {
      const group = firstRun.filter((t) => t.taskId === task.id);
      expect(group.filter((t) => t.condition === 1)).toHaveLength(2);
      expect(group.every((t) => t.groupId === task.id)).toBe(true);
    }
    // Faults really happened, of every kind, and the retries absorbed them all. Fault draws depend only on
    // (server seed, request body, attempt), so with seed 1 this run gets 3–7 of each kind every time.
    const stats = server.stats();
    // The kinds a fault rate draws from (endpoint faults — 401, 404, HTML 502 — are served only when named).
    for (const kind of FAULT_KINDS) expect(stats.faulted[kind]).toBeGreaterThan(0);
    expect(firstRun.filter((t) => t.error)).toEqual([]);
    expect(run.summary()).toMatchObject({ planned: 200, finished: 200, errors: 0 });
    expect(run.summary().usage.requests).toBe(firstRun.reduce((n, t) => n + (t.usage?.requests ?? 0), 0));
    await expect.poll(() => server.inFlight()).toBe(0);
    // The skill helps this fake model: condition 1 always answers right, condition 0 misses about a third.
    const mean = (c: 0 | 1) => {
      const ts = firstRun.filter((t) => t.condition === c && t.steps.every((s) => !s.invalid));
      return ts.reduce((a, t) => a + t.reward, 0) / ts.length;
    };
    expect(mean(1)).toBe(1);
    expect(mean(0)).toBeLessThan(0.9);
    expect(JSON.stringify(firstRun)).not.toContain('sk-test-rollout-key-0001');
  });

  it('replays the run byte-identically from the request cache without contacting the server', async () => {
    expect(firstRun).toHaveLength(200);
    const before = server.stats().received;
    const agent = createOpenAIAgent(agentOptions(server, { cache: cacheDir }));
    const replay: Trajectory[] = [];
    const run = collectRollouts({
      tasks: adapter.tasks,
      adapter,
      agent,
      skills: skill,
      groupSize: 4,
      pairing: { rho: 0.5 },
      concurrency: 32,
      seed: 7,
    });
    for await (const t of run) replay.push(t);
    expect(server.stats().received).toBe(before);
    expect(agent.stats().requests).toBe(0);
    expect(agent.stats().cacheHits).toBe(firstRun.reduce((n, t) => n + t.steps.length, 0));
    expect(sortedJson(replay)).toBe(sortedJson(firstRun));
  });
});

describe('collectRollouts: structure and cancellation', () => {
  it('fixes the groups by the seed, not by finishing order', async () => {
    const adapter = arithmeticAdapter(6);
    const runOnce = async (latencySeed: number) => {
      const server = await startFakeOpenAI({
        respond: arithmeticModel,
        latencyMs: [0, 30],
        seed: latencySeed,
      });
      servers.push(server);
      const order: string[] = [];
      const out: Trajectory[] = [];
      const run = collectRollouts({
        tasks: adapter.tasks,
        adapter,
        agent: createOpenAIAgent(agentOptions(server)),
        skills: skill,
        groupSize: 5,
        pairing: { rho: 0.4 },
        concurrency: 30,
        seed: 3,
      });
      for await (const t of run) {
        order.push(t.id);
        out.push(t);
      }
      return { order, out };
    };
    const a = await runOnce(1);
    const b = await runOnce(2);
    expect(a.order).not.toEqual(b.order);
    const shape = (ts: Trajectory[]) =>
      ts
        .map((t) => `${t.id}/${t.groupId}/${t.index}/${t.seed}/${t.condition}/${t.answer}`)
        .sort()
        .join('\n');
    expect(shape(a.out)).toBe(shape(b.out));
    // ρ·n = 0.4 · 5 = 2 with the skill per group.
    expect(a.out.filter((t) => t.condition === 1)).toHaveLength(12);
  });

  it('cancellation stops the run and leaves no request in flight', async () => {
    const adapter = arithmeticAdapter(50);
    const server = await startFakeOpenAI({
      respond: arithmeticModel,
      latencyMs: [20, 60],
      faults: { rate: 0.3, kinds: ['hang'] },
    });
    servers.push(server);
    const agent = createOpenAIAgent(agentOptions(server, { timeoutMs: 30_000 }));
    const controller = new AbortController();
    const got: Trajectory[] = [];
    const run = collectRollouts({
      tasks: adapter.tasks,
      adapter,
      agent,
      groupSize: 4,
      concurrency: 64,
      signal: controller.signal,
    });
    const consume = async () => {
      for await (const t of run) {
        got.push(t);
        if (got.length === 10) controller.abort(new Error('cancelled by test'));
      }
    };
    await expect(consume()).rejects.toThrow('cancelled by test');
    expect(got.length).toBeGreaterThanOrEqual(10);
    expect(got.length).toBeLessThan(200);
    expect(server.stats().faulted.hang).toBeGreaterThan(0);
    expect(agent.stats().endpoints[0]?.inFlight).toBe(0);
    await expect.poll(() => server.inFlight()).toBe(0);
  });

  it('leaving the loop early cancels the episodes in flight too', async () => {
    const adapter = arithmeticAdapter(20);
    const server = await startFakeOpenAI({ respond: arithmeticModel, latencyMs: [30, 80] });
    servers.push(server);
    const run = collectRollouts({
      tasks: adapter.tasks,
      adapter,
      agent: createOpenAIAgent(agentOptions(server)),
      groupSize: 4,
      concurrency: 40,
    });
    let n = 0;
    for await (const _ of run) {
      if (++n === 3) break;
    }
    await expect.poll(() => server.inFlight()).toBe(0);
    expect(run.summary().finished).toBeLessThan(80);
  });

  it('keeps every episode when the model is down, each with error set', async () => {
    const adapter = arithmeticAdapter(5);
    const server = await startFakeOpenAI({ faults: { plan: () => 'server-error' } });
    servers.push(server);
    const out: Trajectory[] = [];
    const run = collectRollouts({
      tasks: adapter.tasks,
      adapter,
      agent: createOpenAIAgent(agentOptions(server, { retry: { maxRetries: 1, baseDelayMs: 1 } })),
      groupSize: 3,
    });
    for await (const t of run) out.push(t);
    expect(out).toHaveLength(15);
    expect(out.every((t) => t.error?.code === 'model' && t.verdict.score === 0)).toBe(true);
    for (const t of out) validate('trajectory', t);
    expect(run.summary()).toMatchObject({ finished: 15, errors: 15 });
  });
  it('stops the run when onTrajectory throws, and can be iterated only once', async () => {
    const adapter = arithmeticAdapter(10);
    const server = await startFakeOpenAI({ respond: arithmeticModel, latencyMs: [5, 20] });
    servers.push(server);
    let calls = 0;
    const run = collectRollouts({
      tasks: adapter.tasks,
      adapter,
      agent: createOpenAIAgent(agentOptions(server)),
      groupSize: 2,
      concurrency: 4,
      onTrajectory: () => {
        if (++calls === 3) throw new Error('sink full');
      },
    });
    const consume = async () => {
      for await (const _ of run) {
        // drain
      }
    };
    await expect(consume()).rejects.toThrow('sink full');
    expect(run.summary().finished).toBeLessThan(20);
    await expect.poll(() => server.inFlight()).toBe(0);
    await expect(consume()).rejects.toThrow(/iterated only once/);
  });
});

describe('collectRollouts: a ready plan, stored trajectories, plan order', () => {
  it('runs a joined plan, reuses the episodes `stored` knows, and collect() returns plan order', async () => {
    const adapter = arithmeticAdapter(6);
    const server = await startFakeOpenAI({ respond: arithmeticModel, latencyMs: [0, 20], seed: 4 });
    servers.push(server);
    const agent = createOpenAIAgent(agentOptions(server));
    // Two plans joined, as a training step joins one group per task, under a prefix as a run's unit does.
    const plan = [
      ...planRollouts({ tasks: adapter.tasks.slice(0, 3), skills: skill, groupSize: 2, seed: 1 }),
      ...planRollouts({ tasks: adapter.tasks.slice(3), groupSize: 2, pairing: { rho: 0.5 }, seed: 1 }),
    ].map((e) => ({ ...e, id: `s1/${e.id}`, groupId: `s1/${e.groupId}` }));
    const first = await collectRollouts({ plan, adapter, agent, concurrency: 5 }).collect();
    expect(first.map((t) => t.id)).toEqual(plan.map((e) => e.id));
    expect(first.map((t) => t.seed)).toEqual(plan.map((e) => e.seed));
    expect(first.slice(0, 6).every((t) => t.condition === 1 && t.groupId?.startsWith('s1/'))).toBe(true);

    // A second pass that knows half of them: those are yielded as they are, the rest run.
    const stored = new Map(first.filter((_, i) => i % 2 === 0).map((t) => [t.id, t]));
    const seen: { id: string; reused: boolean }[] = [];
    const requestsBefore = server.stats().received;
    const run = collectRollouts({
      plan,
      adapter,
      agent,
      concurrency: 3,
      stored: (episode) => stored.get(episode.id),
      onTrajectory: (t, info) => {
        expect(info.episode.id).toBe(t.id);
        seen.push({ id: t.id, reused: info.reused });
      },
    });
    const second = await run.collect();
    expect(second.map((t) => t.id)).toEqual(plan.map((e) => e.id));
    for (const [i, t] of second.entries()) {
      if (i % 2 === 0) expect(t).toBe(stored.get(t.id));
      // Run again from the same seed: the same episode (latencies aside).
      else
        expect({ ...t, steps: t.steps.map((x) => x.action), durationMs: 0 }).toEqual({
          ...first[i],
          steps: first[i]?.steps.map((x) => x.action),
          durationMs: 0,
        });
    }
    expect(
      seen
        .filter((s) => s.reused)
        .map((s) => s.id)
        .sort(),
    ).toEqual([...stored.keys()].sort());
    expect(run.summary()).toMatchObject({ planned: 12, finished: 12, reused: 6, errors: 0 });
    // One-step episodes: only the six episodes run now asked the model.
    expect(server.stats().received - requestsBefore).toBe(6);
    expect(run.summary().usage.requests).toBe(6);
  });

  it('refuses a plan whose ids collide', () => {
    const adapter = arithmeticAdapter(1);
    const [episode] = planRollouts({ tasks: adapter.tasks, groupSize: 1 });
    expect(() =>
      collectRollouts({ plan: [episode!, episode!], adapter, agent: { act: async () => ({ action: '0' }) } }),
    ).toThrow(/appears twice/);
  });
});
