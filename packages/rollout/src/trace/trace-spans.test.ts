import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import {
  type Environment,
  type Skill,
  skillHash,
  type Task,
  type ToolDefinition,
  type Verifier,
} from '@skillrl/core';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIAgent } from '../agent/create-openai-agent.js';
import { collectRollouts } from '../collect/collect-rollouts.js';
import { runEpisode } from '../episode/run-episode.js';
import { rolloutTracer } from './rollout-tracer.js';
import {
  EPISODE_ATTRIBUTES as E,
  MODEL_CALL_ATTRIBUTES as M,
  TOOL_CALL_ATTRIBUTES as T,
} from './span-vocabulary.js';

const KEY = 'sk-trace-test-key-0123456789abcdef';
const PASSWORD = 'basic-auth-password-42';

const task: Task = { id: 'count-3', family: 'count', split: 'train', prompt: 'Count up to 3.' };
const skill: Skill = { name: 'counting', description: 'Count.', body: 'Say increment until done.' };

function counterEnv(): Environment {
  let n = 0;
  return {
    maxSteps: 6,
    reset: () => {
      n = 0;
      return 'Current: 0';
    },
    step(action) {
      if (action === 'increment') n++;
      return { observation: `Current: ${n}`, reward: n === 3 ? 1 : 0, done: n === 3 };
    },
  };
}
const reached: Verifier = {
  name: 'reached',
  verify: (_task, t) => {
    const ok = t.steps.some((s) => s.done && s.reward === 1);
    return { score: ok ? 1 : 0, passed: ok };
  },
};

const servers: FakeOpenAIServer[] = [];
async function serve(options: Parameters<typeof startFakeOpenAI>[0]) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider | undefined;

/** The SDK as an application registers it: a provider with the async-hooks context manager. */
function register(): void {
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
}
beforeEach(() => exporter.reset());
afterAll(async () => {
  await provider?.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const spans = () => exporter.getFinishedSpans();
const named = (prefix: string) => spans().filter((s) => s.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
/** Everything a backend would receive of the spans, as text. */
const received = () =>
  JSON.stringify(
    spans().map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events })),
  );

describe('spans (no SDK registered)', () => {
  it('the API hands out non-recording spans and the episode runs exactly as it does traced', async () => {
    expect(rolloutTracer.startSpan('probe').isRecording()).toBe(false);
    const agent = { act: async () => ({ action: 'increment' }) };
    const untraced = await runEpisode({ agent, env: counterEnv(), task, skill, verifier: reached, seed: 3 });
    register();
    expect(rolloutTracer.startSpan('probe').isRecording()).toBe(true);
    const traced = await runEpisode({ agent, env: counterEnv(), task, skill, verifier: reached, seed: 3 });
    const { durationMs: _a, steps: s1, ...rest1 } = untraced;
    const { durationMs: _b, steps: s2, ...rest2 } = traced;
    expect(rest2).toEqual(rest1);
    expect(s2.map((s) => s.action)).toEqual(s1.map((s) => s.action));
    expect(named('skillrl.episode')).toHaveLength(1);
  });
});

describe('spans (SDK registered)', () => {
  it('an episode span per episode: skill attributes at z = 1 only, the unit from the id, the reward', async () => {
    if (!provider) register();
    const agent = { act: async () => ({ action: 'increment', usage: { inputTokens: 5, outputTokens: 2 } }) };
    const withSkill = await runEpisode({
      agent,
      env: counterEnv(),
      task,
      skill,
      verifier: reached,
      id: 's7/count-3:c1:i0',
      groupId: 's7/count-3',
      index: 0,
      generation: 2,
    });
    const without = await runEpisode({
      agent,
      env: counterEnv(),
      task,
      condition: 0,
      verifier: reached,
      id: 's7/count-3:c0:i0',
    });
    const episodes = named('skillrl.episode');
    expect(episodes).toHaveLength(2);
    const one = episodes.find((s) => s.attributes[E.rolloutId] === withSkill.id) as ReadableSpan;
    const zero = episodes.find((s) => s.attributes[E.rolloutId] === without.id) as ReadableSpan;
    expect(one.attributes).toMatchObject({
      [E.unit]: 's7',
      [E.generation]: 2,
      [E.taskId]: 'count-3',
      [E.family]: 'count',
      [E.condition]: 1,
      [E.skillName]: 'counting',
      [E.skillHash]: skillHash(skill),
      [E.groupId]: 's7/count-3',
      [E.index]: 0,
      [E.reward]: 1,
      [E.passed]: true,
      [E.steps]: 3,
      [E.errored]: false,
      [E.inputTokens]: 15,
      [E.outputTokens]: 6,
    });
    expect(zero.attributes[E.condition]).toBe(0);
    expect(zero.attributes).not.toHaveProperty(E.skillName);
    expect(zero.attributes).not.toHaveProperty(E.skillHash);
    expect(one.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('model calls are child spans with GenAI attributes; no key or password reaches a span', async () => {
    if (!provider) register();
    const server = await serve({
      script: [{ content: '<action>increment</action>', usage: { prompt_tokens: 11, completion_tokens: 3 } }],
    });
    const withAuth = server.baseURL.replace('http://', `http://user:${PASSWORD}@`);
    const agent = createOpenAIAgent({
      model: 'fake-model',
      baseURL: withAuth,
      apiKey: KEY,
      temperature: 0.5,
    });
    const t = await runEpisode({ agent, env: counterEnv(), task, skill, verifier: reached, id: 'g1/a' });
    expect(t.reward).toBe(1);
    const [episode] = named('skillrl.episode');
    const calls = named('chat ');
    expect(calls).toHaveLength(3);
    const port = Number(new URL(server.baseURL).port);
    for (const call of calls) {
      expect(call.name).toBe('chat fake-model');
      expect(parentOf(call)).toBe(episode?.spanContext().spanId);
      expect(call.spanContext().traceId).toBe(episode?.spanContext().traceId);
      expect(call.attributes).toMatchObject({
        [M.operation]: 'chat',
        [M.provider]: 'openai',
        [M.requestModel]: 'fake-model',
        [M.temperature]: 0.5,
        [M.inputTokens]: 11,
        [M.outputTokens]: 3,
        [M.serverAddress]: '127.0.0.1',
        [M.serverPort]: port,
        [M.endpoint]: `http://127.0.0.1:${port}/v1`,
        [M.attempts]: 1,
        [M.cached]: false,
        [M.finishReasons]: ['stop'],
      });
      expect(call.attributes[M.latencyMs]).toBeTypeOf('number');
    }
    const text = received();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(PASSWORD);
  });

  it('a failed call ends its span in error with the attempts made; a cached reply is marked cached', async () => {
    if (!provider) register();
    const failing = await serve({ faults: { rate: 1, kinds: ['server-error'] }, script: ['x'] });
    const agent = createOpenAIAgent({
      model: 'fake-model',
      baseURL: failing.baseURL,
      apiKey: KEY,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const t = await runEpisode({ agent, env: counterEnv(), task, verifier: reached, condition: 0 });
    expect(t.error?.code).toBe('model');
    const [call] = named('chat ');
    expect(call?.status.code).toBe(SpanStatusCode.ERROR);
    expect(call?.attributes[M.attempts]).toBe(3);
    expect(call?.attributes[M.errorType]).toBe('SKILLRL_MODEL_CALL');
    const [episode] = named('skillrl.episode');
    expect(episode?.attributes).toMatchObject({
      [E.errored]: true,
      [E.errorCode]: 'model',
      'error.type': 'model',
    });
    expect(episode?.status.code).toBe(SpanStatusCode.ERROR);
    expect(received()).not.toContain(KEY);

    exporter.reset();
    const server = await serve({ script: ['<action>increment</action>'] });
    const cache = mkdtempSync(join(tmpdir(), 'skillrl-trace-cache-'));
    const cached = () => createOpenAIAgent({ model: 'fake-model', baseURL: server.baseURL, cache });
    await runEpisode({ agent: cached(), env: counterEnv(), task, verifier: reached, condition: 0 });
    exporter.reset();
    await runEpisode({ agent: cached(), env: counterEnv(), task, verifier: reached, condition: 0 });
    const replayed = named('chat ');
    expect(replayed).toHaveLength(3);
    for (const call of replayed) expect(call.attributes).toMatchObject({ [M.cached]: true, [M.attempts]: 0 });
  });

  it('tool calls the runner executes are child spans: name, call id, latency, errored', async () => {
    if (!provider) register();
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
    const t = await runEpisode({
      agent,
      env: counterEnv(),
      task,
      verifier: reached,
      tools: [peek],
      maxSteps: 2,
    });
    const [episode] = named('skillrl.episode');
    const [tool] = named('execute_tool');
    expect(tool?.name).toBe('execute_tool peek');
    expect(parentOf(tool as ReadableSpan)).toBe(episode?.spanContext().spanId);
    const callId = (t.steps[0]?.info?.toolCall as { id: string } | undefined)?.id;
    expect(tool?.attributes).toMatchObject({
      [T.operation]: 'execute_tool',
      [T.toolName]: 'peek',
      [T.toolCallId]: callId,
      [T.errored]: false,
    });
    expect(tool?.attributes[T.latencyMs]).toBeTypeOf('number');
    // The arguments and the result are the task's: not in the span.
    expect(JSON.stringify(tool?.attributes)).not.toContain('counter');

    exporter.reset();
    const broken: ToolDefinition = {
      ...peek,
      execute: () => {
        throw new Error(`tool backend down (key ${KEY})`);
      },
    };
    const again = await serve({ script: [{ toolCalls: [{ name: 'peek', arguments: '{}' }] }] });
    const agent2 = createOpenAIAgent({ model: 'm', baseURL: again.baseURL, mode: 'tools', apiKey: KEY });
    const failed = await runEpisode({
      agent: agent2,
      env: counterEnv(),
      task,
      verifier: reached,
      tools: [broken],
      maxSteps: 2,
    });
    expect(failed.error?.code).toBe('tool');
    const [failedTool] = named('execute_tool');
    expect(failedTool?.attributes).toMatchObject({ [T.errored]: true, [T.errorType]: 'Error' });
    expect(failedTool?.status.code).toBe(SpanStatusCode.ERROR);
    expect(received()).not.toContain(KEY);
  });

  it('collectRollouts: one episode span per planned episode, one that could not start included', async () => {
    if (!provider) register();
    const agent = { act: async () => ({ action: 'increment' }) };
    const tasks: Task[] = [task, { ...task, id: 'broken-env' }];
    const run = collectRollouts({
      tasks,
      skills: () => skill,
      groupSize: 2,
      agent,
      adapter: {
        createEnvironment: (t) => {
          if (t.id === 'broken-env') throw new Error('no such room');
          return counterEnv();
        },
        verifier: () => reached,
      },
    });
    const trajectories = await run.collect();
    const episodes = named('skillrl.episode');
    expect(episodes.map((s) => s.attributes[E.rolloutId]).sort()).toEqual(
      trajectories.map((t) => t.id).sort(),
    );
    const unrun = episodes.filter((s) => s.attributes[E.errorCode] === 'environment');
    expect(unrun.length).toBe(trajectories.filter((t) => t.error?.code === 'environment').length);
    expect(unrun.length).toBeGreaterThan(0);
    for (const span of episodes) {
      const t = trajectories.find((x) => x.id === span.attributes[E.rolloutId]);
      expect(span.attributes[E.reward]).toBe(t?.reward);
    }
  });

  it('an aborted episode ends its span in error and still throws', async () => {
    if (!provider) register();
    const controller = new AbortController();
    const agent = {
      act: async () => {
        controller.abort(new Error('stop now'));
        return { action: 'increment' };
      },
    };
    await expect(
      runEpisode({
        agent,
        env: counterEnv(),
        task,
        verifier: reached,
        signal: controller.signal,
        id: 's2/x',
      }),
    ).rejects.toThrow('stop now');
    const [episode] = named('skillrl.episode');
    expect(episode?.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'stop now' });
    expect(episode?.attributes).toMatchObject({
      [E.rolloutId]: 's2/x',
      [E.unit]: 's2',
      [E.taskId]: 'count-3',
    });
  });
});
