import type { Task, Trajectory } from '@skillrl/core';
import { validate } from '@skillrl/core';
import household from '@skillrl/task-household';
import { type FakeChatRequest, type FakeReply, startFakeOpenAI } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import { createOpenAIAgent } from '../agent/create-openai-agent.js';
import { collectRollouts } from './collect-rollouts.js';

/**
 * A fake household model: reads the admissible actions off the last message and prefers one that names the
 * task's object (so some episodes make progress), else a "go to" chosen by the request's seed.
 */
function householdModel(request: FakeChatRequest): FakeReply {
  const messages = request.messages ?? [];
  const last = String(messages[messages.length - 1]?.content ?? '');
  const listed = /Admissible actions: (.*)$/m.exec(last)?.[1]?.split(', ') ?? ['look'];
  const prompt = messages.map((m) => String(m.content ?? '')).join('\n');
  const object = /Your task is to: \w+ (?:a|an|some|two) (\w+)/.exec(prompt)?.[1];
  const seed = typeof request.seed === 'number' ? request.seed : 0;
  const wanted = object ? listed.filter((a) => a.includes(object) && !a.startsWith('examine')) : [];
  const pool = wanted.length > 0 ? wanted : listed;
  return `Thought: keep going.\nAction: ${pool[seed % pool.length]}`;
}

describe('collectRollouts: household run under faults', () => {
  it('runs 200 household episodes under 10% injected faults, losing and duplicating none', async () => {
    const tasks: Task[] = await household.load({ split: 'train', limit: 25, seed: 3 });
    const skills = household.skills?.() ?? [];
    const server = await startFakeOpenAI({
      respond: householdModel,
      latencyMs: [0, 4],
      seed: 9,
      faults: { rate: 0.1, retryAfterMs: 10 },
    });
    try {
      const agent = createOpenAIAgent({
        model: 'fake-household',
        baseURL: server.baseURL,
        timeoutMs: 5000,
        retry: { maxRetries: 6, baseDelayMs: 5, maxDelayMs: 40 },
        historyWindow: 4,
      });
      const run = collectRollouts({
        tasks,
        adapter: household,
        agent,
        // The family's own skill (not the general one) for each task.
        skills: (task) =>
          skills.find((s) => s.name !== 'household-general' && s.families?.includes(task.family)),
        groupSize: 8,
        pairing: { rho: 0.5 },
        concurrency: 48,
        maxSteps: 4,
        seed: 11,
      });
      const out: Trajectory[] = [];
      for await (const t of run) out.push(t);

      expect(out).toHaveLength(200);
      const keys = out.map((t) => `${t.taskId}|${t.condition}|${t.index}`);
      expect(new Set(keys).size).toBe(200);
      expect(new Set(out.map((t) => t.id))).toEqual(new Set(run.plan.map((e) => e.id)));
      for (const t of out) validate('trajectory', t);
      expect(out.filter((t) => t.error)).toEqual([]);
      for (const task of tasks) {
        const group = out.filter((t) => t.taskId === task.id);
        expect(group).toHaveLength(8);
        expect(group.filter((t) => t.condition === 1)).toHaveLength(4);
        expect(group.every((t) => t.family === task.family)).toBe(true);
        expect(
          group.filter((t) => t.condition === 1).every((t) => t.skill?.name.startsWith('household-')),
        ).toBe(true);
      }
      // Real household episodes: the first observation is the game's welcome text, at most 4 steps each.
      expect(out.every((t) => t.steps[0]?.observation.includes('Welcome to TextWorld'))).toBe(true);
      expect(out.every((t) => t.steps.length >= 1 && t.steps.length <= 4)).toBe(true);
      const faulted = Object.values(server.stats().faulted).reduce((a, b) => a + b, 0);
      expect(faulted).toBeGreaterThan(0);
      expect(server.stats().faulted.hang).toBeGreaterThan(0);
      await expect.poll(() => server.inFlight()).toBe(0);
      expect(run.summary().usage.requests).toBe(out.reduce((n, t) => n + t.steps.length, 0));
    } finally {
      await server.close();
    }
  });
});
