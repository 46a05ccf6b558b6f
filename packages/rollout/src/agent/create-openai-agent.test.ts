import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentContext, Skill, Task } from '@skillrl/core';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../resilience/model-call-error.js';
import { createOpenAIAgent } from './create-openai-agent.js';

const servers: FakeOpenAIServer[] = [];
async function serve(options: Parameters<typeof startFakeOpenAI>[0]) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const task: Task = {
  id: 'kitchen-1',
  family: 'pick',
  split: 'train',
  prompt: 'Put a clean mug in the cabinet.',
};
const skill: Skill = {
  name: 'clean-and-place',
  description: 'Clean, then place.',
  body: 'Rinse it at the sink first.',
};
const context = (extra: Partial<AgentContext> = {}): AgentContext => ({
  task,
  condition: 0,
  observation: 'You are in a kitchen.',
  history: [],
  stepIndex: 0,
  seed: 11,
  ...extra,
});
const systemOf = (request: unknown) => (request as FakeChatRequest).messages?.[0]?.content as string;

describe('createOpenAIAgent: text mode', () => {
  it('parses the action, keeps usage, log-probs and token ids, and prices the call', async () => {
    const server = await serve({ script: ['I should look.\n<action>go to sink 1</action>'] });
    const agent = createOpenAIAgent({
      model: 'qwen',
      baseURL: server.baseURL,
      logprobs: true,
      topLogprobs: 2,
      prices: { qwen: { input: 2, output: 10 } },
    });
    const action = await agent.act(context());
    expect(action.action).toBe('go to sink 1');
    expect(action.invalid).toBeUndefined();
    expect(action.raw).toContain('I should look.');
    // Fake tokens: "I", " should", " look.", "\n<action>go", " to", " sink", " 1</action>" = 7.
    expect(action.tokenIds).toHaveLength(7);
    expect(action.logProbs).toHaveLength(7);
    expect(action.logProb).toBeCloseTo(
      (action.logProbs ?? []).reduce((a, b) => a + b, 0),
      12,
    );
    const prompt = action.usage?.inputTokens ?? 0;
    expect(action.usage).toMatchObject({ outputTokens: 7, requests: 1 });
    // cost = (prompt · 2 + 7 · 10) / 1e6
    expect(action.usage?.cost).toBeCloseTo((prompt * 2 + 70) / 1e6, 15);
    const body = server.requests[0]?.body as FakeChatRequest;
    expect(body).toMatchObject({ model: 'qwen', logprobs: true, top_logprobs: 2, seed: 11 });
    expect(agent.stats()).toMatchObject({ requests: 1, retries: 0, usage: { outputTokens: 7 } });
  });

  it('injects the skill under condition 1 only, through a replaceable template', async () => {
    const server = await serve({ script: ['<action>look</action>'] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL });
    await agent.act(context({ condition: 1, skill }));
    await agent.act(context({ condition: 0, skill }));
    expect(systemOf(server.requests[0]?.body)).toContain('Rinse it at the sink first.');
    expect(systemOf(server.requests[1]?.body)).not.toContain('Rinse');
    const custom = createOpenAIAgent({
      model: 'm',
      baseURL: server.baseURL,
      systemPrompt: 'Rules. {{skill}}',
    });
    await custom.act(context({ condition: 1, skill }));
    expect(systemOf(server.requests[2]?.body)).toMatch(/^Rules\. Follow this skill/);
  });

  it('marks a reply without an action invalid instead of failing', async () => {
    const server = await serve({ script: [''] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL });
    const action = await agent.act(context());
    expect(action).toMatchObject({ action: '', invalid: true, info: { error: 'empty reply' } });
  });

  it('lists admissible actions and replays history as alternating turns', async () => {
    const server = await serve({ script: ['<action>b</action>'] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, historyWindow: 1 });
    const history = [
      { index: 0, observation: 'obs0', action: 'a0', reward: 0, done: false },
      {
        index: 1,
        observation: 'obs1',
        action: 'a1',
        reward: 0,
        done: false,
        info: { raw: 'thinking <action>a1</action>' },
      },
    ];
    await agent.act(context({ history, observation: 'obs2', stepIndex: 2, admissibleActions: ['a', 'b'] }));
    const messages = ((server.requests[0]?.body ?? {}) as FakeChatRequest).messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'user']);
    expect(messages[1]?.content).toContain('1 earlier steps omitted');
    expect(messages[3]?.content).toBe('thinking <action>a1</action>');
    expect(messages[4]?.content).toBe('obs2\n\nAdmissible actions: a, b');
  });
});

describe('createOpenAIAgent: tools mode', () => {
  it('acts through the act tool, and a malformed tool call is an invalid action', async () => {
    const server = await serve({
      script: [
        { toolCalls: [{ name: 'act', arguments: '{"action":"open cabinet 1"}' }] },
        { toolCalls: [{ name: 'act', arguments: '{"action": "open cab' }] },
        'Action: look',
      ],
    });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, mode: 'tools' });
    const ok = await agent.act(context({ admissibleActions: ['open cabinet 1', 'look'] }));
    expect(ok).toMatchObject({ action: 'open cabinet 1', info: { toolCall: { name: 'act' } } });
    const tools = ((server.requests[0]?.body ?? {}) as FakeChatRequest).tools ?? [];
    expect(tools[0]?.function.name).toBe('act');
    const bad = await agent.act(context());
    expect(bad).toMatchObject({
      action: '',
      invalid: true,
      info: { error: /malformed tool-call arguments/ },
    });
    const text = await agent.act(context());
    expect(text).toMatchObject({ action: 'look', info: { noToolCall: true } });
    // History with a tool call is replayed as assistant tool_calls + a tool message with the same id.
    await agent.act(
      context({
        history: [
          { index: 0, observation: 'o0', action: 'open cabinet 1', reward: 0, done: false, info: ok.info },
        ],
        observation: 'o1',
      }),
    );
    const messages = ((server.requests[3]?.body ?? {}) as FakeChatRequest).messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[3]?.tool_call_id).toBe((ok.info?.toolCall as { id?: string } | undefined)?.id);
  });
});

describe('createOpenAIAgent: resilience', () => {
  it('retries 429 honouring Retry-After, 500s and hangs (per-request timeout)', async () => {
    const plan = ['rate-limit', 'server-error', 'hang', 'drop', 'truncated-json'] as const;
    const server = await serve({
      script: ['<action>ok</action>'],
      faults: { plan: ({ index }) => plan[index], retryAfterMs: 120 },
    });
    const delays: number[] = [];
    const agent = createOpenAIAgent({
      model: 'm',
      baseURL: server.baseURL,
      timeoutMs: 300,
      retry: { maxRetries: 5, baseDelayMs: 5, maxDelayMs: 10 },
      onRetry: (e) => delays.push(e.delayMs),
    });
    const action = await agent.act(context());
    expect(action.action).toBe('ok');
    expect(server.stats().received).toBe(6);
    expect(delays).toHaveLength(5);
    expect(delays[0]).toBe(120);
    for (const d of delays.slice(1)) expect(d).toBeLessThanOrEqual(10);
    expect(agent.stats()).toMatchObject({ requests: 6, retries: 5, failures: 0 });
    await expect.poll(() => server.inFlight()).toBe(0);
  });

  it('throws ModelCallError past the budget, without the API key anywhere', async () => {
    const server = await serve({ faults: { plan: () => 'server-error' } });
    const apiKey = 'sk-proj-verysecretkey0123456789';
    const agent = createOpenAIAgent({
      model: 'm',
      baseURL: server.baseURL,
      apiKey,
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    const error = await agent.act(context()).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 3, status: 500 });
    expect(server.stats().received).toBe(3);
    expect(JSON.stringify(server.requests)).not.toContain(apiKey);
    expect(`${(error as Error).message} ${(error as Error).stack}`).not.toContain(apiKey);
    expect(agent.stats().failures).toBe(1);
  });

  it('cancels through the signal, leaving nothing in flight', async () => {
    const server = await serve({ faults: { plan: () => 'hang' } });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL });
    const controller = new AbortController();
    const pending = agent.act(context({ signal: controller.signal })).catch((e: unknown) => e);
    await expect.poll(() => server.inFlight()).toBe(1);
    controller.abort(new Error('user stop'));
    expect(await pending).toMatchObject({ message: expect.stringMatching(/abort|user stop/i) });
    await expect.poll(() => server.inFlight()).toBe(0);
    expect(agent.stats().endpoints[0]?.inFlight).toBe(0);
  });

  it('leaves no abort listener on a long-lived signal however many calls and retries used it', async () => {
    const server = await serve({
      faults: { plan: ({ index }) => (index % 2 === 0 ? 'server-error' : undefined) },
    });
    const agent = createOpenAIAgent({
      model: 'm',
      baseURL: server.baseURL,
      retry: { maxRetries: 3, baseDelayMs: 1 },
    });
    const controller = new AbortController();
    // 15 calls, each failing once and retried: 30 requests, all under one signal (an editor's, a run's).
    for (let i = 0; i < 15; i++) await agent.act(context({ signal: controller.signal, seed: i }));
    expect(server.stats().received).toBe(30);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('balances several endpoints by least in-flight requests and caps concurrency', async () => {
    const a = await serve({ latencyMs: 40 });
    const b = await serve({ latencyMs: 40 });
    let peak = 0;
    const agent = createOpenAIAgent({ model: 'm', baseURLs: [a.baseURL, b.baseURL], concurrency: 4 });
    const watch = setInterval(() => {
      peak = Math.max(peak, a.inFlight() + b.inFlight());
    }, 2);
    await Promise.all(Array.from({ length: 16 }, (_, i) => agent.act(context({ seed: i }))));
    clearInterval(watch);
    expect(a.stats().received).toBe(8);
    expect(b.stats().received).toBe(8);
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThanOrEqual(2);
  });

  it('rejects options that cannot work', () => {
    expect(() => createOpenAIAgent({ model: '' })).toThrow(/options.model/);
    expect(() => createOpenAIAgent({ model: 'm', concurrency: 0 })).toThrow(/options.concurrency/);
    expect(() => createOpenAIAgent({ model: 'm', mode: 'json' as 'text' })).toThrow(/options.mode/);
  });
});

describe('createOpenAIAgent: request cache', () => {
  it('keys on the decision seed even when it is not sent, so a group does not collapse', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-agent-cache-'));
    try {
      const server = await serve({ script: ['<action>a</action>', '<action>b</action>'] });
      const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, sendSeed: false, cache: dir });
      const first = await agent.act(context({ seed: 1 }));
      const second = await agent.act(context({ seed: 2 }));
      expect([first.action, second.action]).toEqual(['a', 'b']);
      expect(((server.requests[0]?.body ?? {}) as FakeChatRequest).seed).toBeUndefined();
      const again = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, sendSeed: false, cache: dir });
      expect((await again.act(context({ seed: 2 }))).action).toBe('b');
      expect(again.stats()).toMatchObject({ requests: 0, cacheHits: 1 });
      expect(server.stats().received).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createOpenAIAgent: the system prompt, rendered once per family and skill', () => {
  it('follows a skill edited in place, the condition and the family, as if rendered every time', async () => {
    const server = await serve({ script: ['<action>look</action>'] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL });
    const edited: Skill = { ...skill };
    await agent.act(context({ condition: 1, skill: edited }));
    await agent.act(context({ condition: 1, skill: edited }));
    edited.body = 'Dry it with a towel.';
    await agent.act(context({ condition: 1, skill: edited }));
    await agent.act(context({ condition: 0, skill: edited }));
    await agent.act(context({ task: { ...task, family: 'heat' }, condition: 0 }));
    const systems = server.requests.map((r) => systemOf(r.body));
    expect(systems[0]).toContain('Rinse it at the sink first.');
    expect(systems[1]).toBe(systems[0]);
    expect(systems[2]).toContain('Dry it with a towel.');
    expect(systems[2]).not.toContain('Rinse');
    expect(systems[3]).not.toContain('<skill');
    expect(systems[4]).toBe(systems[3]);
  });

  it('calls a function template for every request, with what it may read', async () => {
    const server = await serve({ script: ['<action>look</action>'] });
    const seen: unknown[] = [];
    const agent = createOpenAIAgent({
      model: 'm',
      baseURL: server.baseURL,
      systemPrompt: (input) => {
        seen.push(input.admissibleActions);
        return `family ${input.task.family}, ${input.admissibleActions?.length ?? 0} actions`;
      },
    });
    await agent.act(context({ admissibleActions: ['look'] }));
    await agent.act(context({ admissibleActions: ['look', 'go to sink 1'] }));
    expect(seen).toEqual([['look'], ['look', 'go to sink 1']]);
    expect(systemOf(server.requests[1]?.body)).toBe('family pick, 2 actions');
  });
});
