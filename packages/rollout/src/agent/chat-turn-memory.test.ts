import {
  type ChatTurn,
  chatTurnsOf,
  type Environment,
  encodeChatTurn,
  type Task,
  type Trajectory,
} from '@skillrl/core';
import {
  type FakeChatRequest,
  type FakeOpenAIServer,
  fakePromptTokenIds,
  fakeTokenId,
  fakeTokenize,
  startFakeOpenAI,
} from '@skillrl/testkit';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../episode/run-episode.js';
import { createChatTurnMemory } from './chat-turn-memory.js';
import { createOpenAIAgent } from './create-openai-agent.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const task: Task = {
  id: 'count-1',
  family: 'count',
  split: 'train',
  prompt: 'Count to three, one number a turn.',
};
const skill = { name: 'counting', description: 'Count.', body: 'Say the next number.' };

/** Three turns; lists admissible actions only when asked, which makes each prompt re-render the last one. */
function countingEnv(admissible: boolean): Environment {
  let n = 0;
  return {
    maxSteps: 3,
    reset: () => 'Start counting.',
    ...(admissible ? { admissibleActions: () => ['one', 'two', 'three'] } : {}),
    step: (action) => {
      n++;
      return { observation: `You said ${action}.`, reward: 0, done: n >= 3 };
    },
  };
}

const verifier = { name: 'v', verify: () => ({ score: 1, passed: true }) };

async function play(admissible: boolean, agentOptions: Record<string, unknown> = {}) {
  const replies = new Map<number, string>();
  const server = await startFakeOpenAI({
    respond: (request, ctx) => {
      const reply = `Action: ${['one', 'two', 'three'][(request.messages?.length ?? 2) / 2 - 1] ?? 'three'}`;
      replies.set(ctx.index, reply);
      return reply;
    },
  });
  servers.push(server);
  const agent = createOpenAIAgent({
    model: 'm',
    baseURL: server.baseURL,
    logprobs: true,
    returnTokenIds: true,
    ...agentOptions,
  });
  const trajectory = await runEpisode({ agent, env: countingEnv(admissible), task, skill, verifier });
  return { server, trajectory, replies };
}

function expectTurnsAsSent(server: FakeOpenAIServer, trajectory: Trajectory, replies: Map<number, string>) {
  // Stored as JSONL, read back: the records expand to exactly what was sent and returned.
  const stored = JSON.parse(JSON.stringify(trajectory)) as Trajectory;
  const turns = chatTurnsOf(stored.steps);
  expect(turns).toHaveLength(3);
  turns.forEach((turn, i) => {
    const body = server.requests[i]?.body as FakeChatRequest;
    expect(body.return_token_ids).toBe(true);
    expect(turn?.messages).toEqual(body.messages);
    expect(turn?.reply).toEqual({ role: 'assistant', content: replies.get(i) });
    expect(turn?.promptTokenIds).toEqual(fakePromptTokenIds(body));
    expect(stored.steps[i]?.tokenIds).toEqual(fakeTokenize(replies.get(i) ?? '').map(fakeTokenId));
  });
}

describe('the openai agent records each turn as sent and returned', () => {
  it('delta-codes a history that grows turn by turn: each record carries only the new messages and ids', async () => {
    const { server, trajectory, replies } = await play(false);
    expectTurnsAsSent(server, trajectory, replies);
    const records = trajectory.steps.map((s) => s.info?.chat);
    expect(records.map((r) => r?.keep)).toEqual([0, 2, 4]);
    // The reply and the next observation; the prompt ids continue the previous prompt and reply.
    expect(records[1]?.append.map((m) => m.role)).toEqual(['assistant', 'user']);
    const first = fakePromptTokenIds(server.requests[0]?.body as FakeChatRequest);
    expect(records[1]?.promptTokenIds?.keep).toBe(first.length);
    const reply = trajectory.steps[0]?.tokenIds ?? [];
    expect(records[1]?.promptTokenIds?.append.slice(0, reply.length)).toEqual(reply);
    // The system prompt carried the skill (condition 1), and is stored once.
    expect(records[0]?.append[0]?.content).toContain('Say the next number.');
  });

  it('a re-rendered last message (admissible actions) is written out again, and still expands exactly', async () => {
    const { server, trajectory, replies } = await play(true);
    expectTurnsAsSent(server, trajectory, replies);
    expect(trajectory.steps.map((s) => s.info?.chat?.keep)).toEqual([0, 1, 3]);
  });

  it('encodes a history it did not record itself (read back from disk) the same way', async () => {
    const { trajectory } = await play(false);
    const server = await startFakeOpenAI({ script: ['Action: four'] });
    servers.push(server);
    const agent = createOpenAIAgent({ model: 'm', baseURL: server.baseURL, returnTokenIds: true });
    const history = JSON.parse(JSON.stringify(trajectory.steps));
    const action = await agent.act({
      task,
      condition: 1,
      skill,
      observation: 'You said three.',
      history,
      stepIndex: 3,
    });
    expect(action.info?.chat).toMatchObject({ keep: 6 });
    const turns = chatTurnsOf([
      ...history,
      { index: 3, observation: '', action: 'four', reward: 0, done: true, info: action.info },
    ]);
    expect(turns[3]?.messages).toEqual((server.requests[0]?.body as FakeChatRequest | undefined)?.messages);
  });

  it('records nothing with recordChat: false, and sends no return_token_ids unless asked', async () => {
    const { server, trajectory } = await play(false, { recordChat: false, returnTokenIds: false });
    expect(trajectory.steps.every((s) => s.info?.chat === undefined)).toBe(true);
    expect((server.requests[0]?.body as FakeChatRequest | undefined)?.return_token_ids).toBeUndefined();
  });
});

describe('createChatTurnMemory', () => {
  const step = (chat: unknown, index: number) =>
    ({ index, observation: '', action: '', reward: 0, done: false, info: { chat } }) as never;

  it('records exactly what core encodes from the turns as sent, whatever they hold', () => {
    // Lookalikes: the same keys in another order (other JSON), NaN and null (the same JSON), a Date and its
    // string (the same JSON), nested tool calls; each pick is a fresh object.
    const pool = (): Record<string, unknown>[] => [
      { role: 'user', content: 'a' },
      { content: 'a', role: 'user' },
      { role: 'user', content: Number.NaN },
      { role: 'user', content: null },
      { role: 'user', content: new Date(0) },
      { role: 'user', content: new Date(1) },
      { role: 'user', content: '1970-01-01T00:00:00.000Z' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', function: { name: 'f' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', function: { name: 'g' } }] },
    ];
    const turn = fc.record({
      messages: fc.array(fc.nat(8), { maxLength: 3 }),
      tools: fc.option(fc.array(fc.nat(8), { maxLength: 2 }), { nil: undefined }),
      reply: fc.nat(8),
    });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 4 }), (list) => {
        const memory = createChatTurnMemory();
        const history: never[] = [];
        const turns = list.map(
          (t) =>
            ({
              messages: t.messages.map((k) => pool()[k]),
              ...(t.tools ? { tools: t.tools.map((k) => pool()[k]) } : {}),
              reply: pool()[t.reply],
            }) as unknown as ChatTurn,
        );
        turns.forEach((sent, i) => {
          const copy = JSON.parse(JSON.stringify(sent)) as ChatTurn;
          const record = memory.record(history, sent);
          const expected = encodeChatTurn(turns[i - 1], sent);
          expect(JSON.stringify(record)).toBe(JSON.stringify(expected));
          // The turn as sent is left as it was.
          expect(JSON.stringify(sent)).toBe(JSON.stringify(copy));
          history.push(step(record, i));
        });
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});
