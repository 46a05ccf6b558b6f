import type { AgentContext, Task } from '@skillrl/core';
import { type FakeOpenAIServer, type FakeReply, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { toolBudgetNotice } from '../episode/tool-budget.js';
import { ModelCallError } from '../resilience/model-call-error.js';
import { NoChoiceError } from '../resilience/no-choice-error.js';
import { createOpenAIAgent } from './create-openai-agent.js';

// Which replies of the real fake server the agent can use, by what it offered: a reply it cannot use is
// the endpoint's failure (retried, then a ModelCallError: the rollout's `error.code: 'model'`), never an
// empty action scored as the policy's; one the policy chose (empty text, a call to a tool it was not
// offered in tools mode) stays an invalid action.

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function agentAnswering(reply: FakeReply, mode: 'text' | 'tools') {
  const server = await startFakeOpenAI({ respond: () => reply });
  servers.push(server);
  const agent = createOpenAIAgent({
    model: 'm',
    baseURL: server.baseURL,
    mode,
    retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 },
  });
  return { server, agent };
}

const task: Task = { id: 'kitchen-1', family: 'pick', split: 'train', prompt: 'Put a mug in the cabinet.' };
const context = (extra: Partial<AgentContext> = {}): AgentContext => ({
  task,
  condition: 0,
  observation: 'You are in a kitchen.',
  history: [],
  stepIndex: 0,
  seed: 3,
  ...extra,
});
const toolOnly = (name: string): FakeReply => ({ toolCalls: [{ name, arguments: '{"action":"look"}' }] });

describe('text mode (no tools offered)', () => {
  it('content null with only a tool call: a NoChoiceError, retried, then a ModelCallError saying what arrived', async () => {
    const { server, agent } = await agentAnswering(toolOnly('act'), 'text');
    const error = await agent.act(context()).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(NoChoiceError.isInstance((error as Error).cause)).toBe(true);
    expect((error as Error).message).toContain(
      'NoChoiceError: the endpoint answered 200 with a choice whose content is null and which has only a tool call (name act), finish_reason tool_calls (text was asked for)',
    );
    expect((error as Error).message).toMatch(/gave up after 2 attempts/);
    expect(server.stats().received).toBe(2);
    // Nothing offered tools: the call was not invited.
    expect(server.requests.every((r) => !(r.body as { tools?: unknown }).tools)).toBe(true);
  });

  it('an empty string is text the model sent: an invalid action ("empty reply"), asked once', async () => {
    const { server, agent } = await agentAnswering('', 'text');
    const action = await agent.act(context());
    expect(action).toMatchObject({ action: '', invalid: true, info: { error: 'empty reply' } });
    expect(server.stats().received).toBe(1);
  });

  it('text beside a tool call: the text is the reply, its action parsed', async () => {
    const { agent } = await agentAnswering(
      { content: 'Action: look', toolCalls: [{ name: 'act', arguments: '{}' }] },
      'text',
    );
    expect(await agent.act(context())).toMatchObject({ action: 'look' });
  });
});

describe('tools mode (tools offered)', () => {
  it('content null calling a tool it was not offered: a malformed tool call, the invalid action of the policy', async () => {
    const { server, agent } = await agentAnswering(toolOnly('read_file'), 'tools');
    const action = await agent.act(context());
    expect(action).toMatchObject({ action: '', invalid: true, info: { error: 'unknown tool "read_file"' } });
    expect(server.stats().received).toBe(1);
  });

  it('the last turn of a tool episode (no tools sent): a tool call is refused as the answer, not retried', async () => {
    const { server, agent } = await agentAnswering(toolOnly('read_file'), 'tools');
    const budget = { maxCalls: 1, notice: toolBudgetNotice(1) };
    const action = await agent.act(context({ toolBudget: budget }));
    expect(action).toMatchObject({
      action: '',
      invalid: true,
      info: { toolBudgetSpent: true, refusedToolCalls: ['read_file'] },
    });
    expect(server.stats().received).toBe(1);
    const sent = server.requests[0]?.body as { messages?: unknown; tools?: unknown } | undefined;
    expect(sent?.messages).toBeDefined();
    expect(sent?.tools).toBeUndefined();
  });
});
