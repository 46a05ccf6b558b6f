import {
  type AgentContext,
  type Environment,
  type Skill,
  skillHash,
  type Task,
  type ToolDefinition,
  type Verifier,
  validate,
} from '@skillrl/core';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIAgent } from '../agent/create-openai-agent.js';
import { runEpisode } from './run-episode.js';
import { spentToolBudget } from './tool-budget.js';

const servers: FakeOpenAIServer[] = [];
async function serve(options: Parameters<typeof startFakeOpenAI>[0]) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const task: Task = { id: 'count-3', family: 'count', split: 'train', prompt: 'Count up to 3.' };
const skill: Skill = { name: 'counting', description: 'Count.', body: 'Say increment until done.' };

/** Counts to 3: `increment` adds one, anything else is a no-op; reward 1 when 3 is reached. */
function counterEnv(maxSteps = 6, failOn?: number): Environment & { closed: boolean; stepped: string[] } {
  let n = 0;
  return {
    maxSteps,
    closed: false,
    stepped: [],
    reset: () => {
      n = 0;
      return 'Current: 0';
    },
    step(action) {
      this.stepped.push(action);
      if (failOn !== undefined && this.stepped.length === failOn) throw new Error('engine crashed');
      if (action === 'increment') n++;
      return { observation: `Current: ${n}`, reward: n === 3 ? 1 : 0, done: n === 3 };
    },
    admissibleActions: () => ['increment', 'wait'],
    close() {
      this.closed = true;
    },
  };
}
const reached: Verifier = {
  name: 'reached',
  verify: (_task, t) => {
    const ok = t.steps.some((s) => s.done && s.reward === 1);
    return { score: ok ? 1 : 0, passed: ok, reason: ok ? 'reached 3' : 'did not reach 3' };
  },
};

describe('runEpisode', () => {
  it('an agent that ends the episode takes no step; endEpisode hears once how it ended, with the episode id', async () => {
    const ends: unknown[] = [];
    const ids = new Set<string | undefined>();
    const agent = {
      act: async (context: AgentContext) => {
        ids.add(context.episodeId);
        return context.stepIndex < 2 ? { action: 'increment' } : { action: 'ignored', end: true };
      },
      endEpisode: (end: unknown) => {
        ends.push(end);
      },
    };
    const env = counterEnv();
    const t = await runEpisode({ agent, env, task, verifier: reached, id: 'ep-end' });
    expect(env.stepped).toEqual(['increment', 'increment']);
    expect(t.steps).toHaveLength(2);
    expect(t.verdict.passed).toBe(false);
    expect(t.error).toBeUndefined();
    expect([...ids]).toEqual(['ep-end']);
    expect(ends).toEqual([{ episodeId: 'ep-end', observation: 'Current: 2', done: false }]);
    // Done by the environment; a throwing endEpisode changes nothing.
    const done: unknown[] = [];
    const winner = {
      act: async () => ({ action: 'increment' }),
      endEpisode: (end: unknown) => {
        done.push(end);
        throw new Error('cleanup failed');
      },
    };
    const won = await runEpisode({ agent: winner, env: counterEnv(), task, verifier: reached, id: 'won' });
    expect(won.verdict.passed).toBe(true);
    expect(done).toEqual([{ episodeId: 'won', observation: 'Current: 3', done: true }]);
    // An episode that errored tells the agent why.
    const failed: { error?: { code: string } }[] = [];
    const crashy = {
      act: async () => ({ action: 'increment' }),
      endEpisode: (e: { error?: { code: string } }) => void failed.push(e),
    };
    await runEpisode({ agent: crashy, env: counterEnv(6, 2), task, verifier: reached, id: 'crash' });
    expect(failed[0]?.error?.code).toBe('environment');
  });
  it("records the skill's hash, hashed again when the same skill object is edited", async () => {
    const agent = { act: async () => ({ action: 'increment' }) };
    const own: Skill = { ...skill };
    const hashOf = async () =>
      (await runEpisode({ agent, env: counterEnv(), task, skill: own, verifier: reached })).skill?.hash;
    const first = await hashOf();
    expect(first).toBe(skillHash(own));
    expect(await hashOf()).toBe(first);
    own.body = 'Say increment three times.';
    expect(await hashOf()).toBe(skillHash(own));
    expect(skillHash(own)).not.toBe(first);
  });

  it('runs reset → act/step until done, then verifies, producing a valid trajectory', async () => {
    const server = await serve({ script: ['<action>increment</action>'] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, logprobs: true });
    const env = counterEnv();
    const t = await runEpisode({
      agent,
      env,
      task,
      skill,
      verifier: reached,
      seed: 5,
      index: 2,
      groupId: 'count-3',
    });
    expect(validate('trajectory', t)).toBe(t);
    expect(t).toMatchObject({ id: 'count-3:c1:i2', condition: 1, reward: 1, answer: 'increment', seed: 5 });
    expect(t.skill?.name).toBe('counting');
    expect(t.skill?.hash).toMatch(/\w+/);
    expect(t.verdict).toEqual({ score: 1, passed: true, reason: 'reached 3' });
    expect(t.steps.map((s) => [s.observation, s.action, s.reward, s.done])).toEqual([
      ['Current: 0', 'increment', 0, false],
      ['Current: 1', 'increment', 0, false],
      ['Current: 2', 'increment', 1, true],
    ]);
    expect(t.steps.every((s) => s.tokenIds?.length === 1 && s.logProbs?.length === 1)).toBe(true);
    expect(t.usage).toMatchObject({ requests: 3, outputTokens: 3 });
    expect(t.durationMs).toBe(t.steps.reduce((a, s) => a + (s.latencyMs ?? 0), 0));
    expect(env.closed).toBe(true);
    // Each decision gets its own seed, so a group's identical prompts are distinct requests.
    const seeds = server.requests.map((r) => (r.body as FakeChatRequest).seed);
    expect(new Set(seeds).size).toBe(3);
  });

  it('records an invalid action without stepping the environment, and stops at maxSteps', async () => {
    const server = await serve({ script: ['no idea', '<action>wait</action>'] });
    const agent = createOpenAIAgent({
      model: 'm',
      baseURL: server.baseURL,
      actionParser: { formats: ['tag'] },
    });
    const env = counterEnv();
    const t = await runEpisode({ agent, env, task, verifier: reached, maxSteps: 3 });
    expect(t.condition).toBe(0);
    expect(t.skill).toBeUndefined();
    expect(t.steps.map((s) => [s.action, s.invalid ?? false])).toEqual([
      ['', true],
      ['wait', false],
      ['', true],
    ]);
    expect(env.stepped).toEqual(['wait']);
    expect(t.steps[1]?.observation).toMatch(/^Invalid action \(no action found in the reply\)/);
    expect(t.steps[0]?.info?.raw).toBe('no idea');
    expect(t.verdict.passed).toBe(false);
    expect(t.error).toBeUndefined();
  });

  it('turns model, environment and verifier failures into trajectories with error set', async () => {
    const down = await serve({ faults: { plan: () => 'server-error' } });
    const apiKey = 'sk-live-abcdefghijklmnop';
    const failing = createOpenAIAgent({
      model: 'm',
      baseURL: down.baseURL,
      apiKey,
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const model = await runEpisode({ agent: failing, env: counterEnv(), task, verifier: reached });
    expect(validate('trajectory', model)).toBe(model);
    expect(model.error?.code).toBe('model');
    expect(model.error?.message).toMatch(/gave up after 2 attempts/);
    expect(model.verdict).toMatchObject({ score: 0, passed: false });
    expect(JSON.stringify(model)).not.toContain(apiKey);

    const ok = await serve({ script: ['<action>increment</action>'] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: ok.baseURL });
    const env = counterEnv(6, 2);
    const crashed = await runEpisode({ agent, env, task, verifier: reached });
    expect(crashed.error).toEqual({ code: 'environment', message: 'Error: engine crashed' });
    expect(crashed.steps).toHaveLength(2);
    expect(env.closed).toBe(true);

    const broken: Verifier = {
      name: 'broken',
      verify: () => {
        throw new Error('judge down');
      },
    };
    const unverified = await runEpisode({ agent, env: counterEnv(), task, verifier: broken });
    expect(unverified.error?.code).toBe('verifier');
    expect(unverified.steps).toHaveLength(3);
  });

  it('runs task tools that have execute, passing the others to the environment', async () => {
    const server = await serve({
      script: [
        { toolCalls: [{ name: 'peek', arguments: '{"what":"counter"}' }] },
        { toolCalls: [{ name: 'act', arguments: '{"action":"increment"}' }] },
      ],
    });
    const peek: ToolDefinition = {
      name: 'peek',
      description: 'Look at something.',
      parameters: { type: 'object', properties: { what: { type: 'string' } } },
      execute: (args) => `You peek at the ${String(args.what)}.`,
    };
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, mode: 'tools' });
    const env = counterEnv();
    const t = await runEpisode({ agent, env, task, verifier: reached, tools: [peek], maxSteps: 2 });
    expect(t.steps.map((s) => s.action)).toEqual(['peek({"what":"counter"})', 'increment']);
    expect(t.steps[1]?.observation).toBe('You peek at the counter.');
    expect(env.stepped).toEqual(['increment']);
  });

  it('passes the task to execute, sends the result as the tool message, and keeps tool calls out of answer', async () => {
    const server = await serve({
      script: [
        { toolCalls: [{ name: 'lookup', arguments: '{"key":"x"}' }] },
        { toolCalls: [{ name: 'lookup', arguments: '{"key":"y"}' }] },
        { toolCalls: [{ name: 'lookup', arguments: '{"key":"z"}' }] },
      ],
    });
    const seen: unknown[] = [];
    const lookup: ToolDefinition = {
      name: 'lookup',
      description: 'Look a key up for this task.',
      parameters: { type: 'object', properties: { key: { type: 'string' } } },
      execute: (args, options) => {
        seen.push(options?.task?.id);
        return `value of ${String(args.key)} for ${options?.task?.id}`;
      },
    };
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, mode: 'tools' });
    const env = counterEnv();
    const t = await runEpisode({ agent, env, task, verifier: reached, tools: [lookup], maxSteps: 3 });
    expect(seen).toEqual(['count-3', 'count-3']);
    expect(env.stepped).toEqual([]);
    // Only look-ups, then a last one past the budget: the environment got no action, so there is no answer.
    expect(t.answer).toBeUndefined();
    expect(t.steps.map((s) => s.action)).toEqual(['lookup({"key":"x"})', 'lookup({"key":"y"})', '']);
    const second = server.requests[1]?.body as FakeChatRequest;
    const toolMessage = second.messages?.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toBe('value of x for count-3');
    const assistant = second.messages?.find((m) => m.role === 'assistant') as {
      tool_calls: { id: string }[];
    };
    expect(toolMessage?.tool_call_id).toBe(assistant.tool_calls[0]?.id);

    const bad = await serve({ script: [{ toolCalls: [{ name: 'broken', arguments: '{}' }] }] });
    const broken: ToolDefinition = {
      name: 'broken',
      description: 'Returns no text.',
      parameters: { type: 'object' },
      execute: () => 42 as unknown as string,
    };
    const badAgent = createOpenAIAgent({ model: 'm', baseURL: bad.baseURL, mode: 'tools' });
    const failed = await runEpisode({
      agent: badAgent,
      env: counterEnv(),
      task,
      verifier: reached,
      tools: [broken],
    });
    expect(failed.error).toEqual({
      code: 'tool',
      message: 'TypeError: tool "broken" returned number, expected a string',
    });
  });

  it('rejects a skill-less condition 1, and throws the abort reason when cancelled', async () => {
    const server = await serve({ faults: { plan: () => 'hang' } });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL });
    await expect(
      runEpisode({ agent, env: counterEnv(), task, verifier: reached, condition: 1 }),
    ).rejects.toThrow(/skill/);
    const controller = new AbortController();
    const env = counterEnv();
    const pending = runEpisode({ agent, env, task, verifier: reached, signal: controller.signal });
    await expect.poll(() => server.inFlight()).toBe(1);
    controller.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow('stop now');
    expect(env.closed).toBe(true);
    await expect.poll(() => server.inFlight()).toBe(0);
  });
});

describe('runEpisode: the tool budget', () => {
  const lookup: ToolDefinition = {
    name: 'lookup',
    description: 'Look a key up.',
    parameters: { type: 'object', properties: { key: { type: 'string' } } },
    execute: (args) => `value of ${String(args.key)}`,
  };
  const call = (key: string) => ({ toolCalls: [{ name: 'lookup', arguments: JSON.stringify({ key }) }] });
  const bodies = (server: FakeOpenAIServer) => server.requests.map((r) => r.body as FakeChatRequest);
  const lastUser = (body: FakeChatRequest) =>
    String([...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content);

  it('the last decision is sent without tools and with the notice; a text reply there is the answer', async () => {
    const server = await serve({ script: [call('x'), call('y'), 'increment'] });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, mode: 'tools' });
    const env = counterEnv();
    const t = await runEpisode({ agent, env, task, verifier: reached, tools: [lookup], maxSteps: 3 });
    const [first, second, last] = bodies(server);
    expect(first?.tools?.map((tool) => tool.function.name)).toEqual(['act', 'lookup']);
    expect(second?.tool_choice).toBe('auto');
    expect(last).not.toHaveProperty('tools');
    expect(last).not.toHaveProperty('tool_choice');
    // After the last tool result, a user turn says the budget is spent.
    expect(last?.messages?.at(-2)?.role).toBe('tool');
    expect(last?.messages?.at(-1)).toEqual({
      role: 'user',
      content: 'Tool budget spent (maxCalls 2): answer now in plain text, no tool calls.',
    });
    expect(lastUser(second as FakeChatRequest)).not.toContain('Tool budget spent');
    expect(t.steps.map((s) => s.action)).toEqual(['lookup({"key":"x"})', 'lookup({"key":"y"})', 'increment']);
    expect(t.steps[2]?.info?.toolBudgetSpent).toBe(true);
    expect(env.stepped).toEqual(['increment']);
    expect(t.answer).toBe('increment');
  });

  it('a tool call made anyway is not run and is never the answer', async () => {
    const server = await serve({ script: [call('x'), { content: 'I will look.', ...call('y') }] });
    let runs = 0;
    const counted: ToolDefinition = { ...lookup, execute: (args) => `${runs++} ${String(args.key)}` };
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, mode: 'tools' });
    const t = await runEpisode({
      agent,
      env: counterEnv(),
      task,
      verifier: reached,
      tools: [counted],
      maxSteps: 2,
    });
    expect(runs).toBe(1);
    const last = t.steps[1];
    expect(last).toMatchObject({ action: '', invalid: true });
    expect(last?.info).toMatchObject({
      toolBudgetSpent: true,
      refusedToolCalls: ['lookup'],
      error:
        'a tool call (lookup) after the tool budget was spent (maxCalls 1): the episode ends without an answer',
    });
    expect(last?.info).not.toHaveProperty('toolCall');
    expect(t.answer).toBeUndefined();
    expect(t.error).toBeUndefined();
  });

  it('an agent that ignores the budget: its last tool call is not run, and the step is no answer', async () => {
    let runs = 0;
    const counted: ToolDefinition = { ...lookup, execute: () => `run ${runs++}` };
    const contexts: unknown[] = [];
    const stubborn = {
      act: async (context: AgentContext) => {
        contexts.push(spentToolBudget(context));
        return {
          action: 'lookup({"key":"x"})',
          info: { toolCall: { id: 'c', name: 'lookup', arguments: '{"key":"x"}' }, toolArgs: { key: 'x' } },
        };
      },
    };
    const t = await runEpisode({
      agent: stubborn,
      env: counterEnv(),
      task,
      verifier: reached,
      tools: [counted],
      maxSteps: 3,
    });
    expect(runs).toBe(2);
    expect(contexts).toEqual([
      undefined,
      undefined,
      { maxCalls: 2, notice: 'Tool budget spent (maxCalls 2): answer now in plain text, no tool calls.' },
    ]);
    expect(t.steps.map((s) => s.action)).toEqual(['lookup({"key":"x"})', 'lookup({"key":"x"})', '']);
    expect(t.steps[2]).toMatchObject({ invalid: true, info: { toolBudgetSpent: true } });
    expect(String(t.steps[2]?.info?.error)).toMatch(/after the tool budget was spent \(maxCalls 2\)/);
    expect(t.answer).toBeUndefined();
  });

  it('without tools the runner executes, nothing changes at the last step', async () => {
    const server = await serve({
      script: [{ toolCalls: [{ name: 'act', arguments: '{"action":"wait"}' }] }],
    });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, mode: 'tools' });
    const t = await runEpisode({ agent, env: counterEnv(), task, verifier: reached, maxSteps: 1 });
    expect(bodies(server)[0]?.tools?.map((tool) => tool.function.name)).toEqual(['act']);
    expect(t.steps[0]?.info).not.toHaveProperty('toolBudgetSpent');
    expect(t.answer).toBe('wait');
  });
});

describe('runEpisode: a reply with no choice', () => {
  it.each(['no-choices', 'missing-choices'] as const)(
    '%s is retried, then a model error, never an action',
    async (fault) => {
      const server = await serve({ faults: { plan: () => fault } });
      const agent = createOpenAIAgent({
        model: 'm',
        baseURL: server.baseURL,
        retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      });
      const t = await runEpisode({ agent, env: counterEnv(), task, verifier: reached });
      expect(server.stats().received).toBe(3);
      expect(t.steps).toEqual([]);
      expect(t.error?.code).toBe('model');
      expect(t.error?.message).toContain(
        fault === 'no-choices'
          ? 'NoChoiceError: the endpoint answered 200 with choices: [] (no choice)'
          : 'NoChoiceError: the endpoint answered 200 with no choices field',
      );
      expect(t.error?.message).toMatch(/gave up after 3 attempts/);
    },
  );

  it('a fault on the first try only: the retry answers and the episode goes on', async () => {
    const server = await serve({
      script: ['increment'],
      faults: { plan: ({ attempt }) => (attempt === 0 ? 'no-choices' : undefined) },
    });
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, retry: { baseDelayMs: 1 } });
    const t = await runEpisode({ agent, env: counterEnv(), task, verifier: reached });
    expect(t.error).toBeUndefined();
    expect(t.reward).toBe(1);
    expect(server.stats().faulted['no-choices']).toBe(3);
  });
});
