import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../contracts/chat-turn.js';
import type { TrajectoryStep } from '../contracts/trajectory.js';
import { applyChatTurn, chatTurnsOf, encodeChatTurn } from './chat-turn-codec.js';

const sys = { role: 'system', content: 'rules' };
const reply = (content: string) => ({ role: 'assistant', content });
const tool = { type: 'function', function: { name: 'act', parameters: { type: 'object' } } };

const turns: ChatTurn[] = [
  {
    messages: [sys, { role: 'user', content: 'obs0\n\nAdmissible actions: a, b' }],
    tools: [tool],
    reply: reply('a'),
    promptTokenIds: [1, 2, 3, 4],
  },
  {
    // The last user message lost its suffix: only the system prompt is repeated.
    messages: [sys, { role: 'user', content: 'obs0' }, reply('a'), { role: 'user', content: 'obs1' }],
    tools: [tool],
    reply: reply('b'),
    promptTokenIds: [1, 2, 9, 10, 11],
  },
  {
    messages: [
      sys,
      { role: 'user', content: 'obs0' },
      reply('a'),
      { role: 'user', content: 'obs1' },
      reply('b'),
      { role: 'user', content: 'obs2' },
    ],
    reply: reply('c'),
    promptTokenIds: [1, 2, 9, 10, 11, 12, 13],
  },
];

function encodeAll(list: ChatTurn[]) {
  return list.map((turn, i) => encodeChatTurn(list[i - 1], turn));
}

describe('chat turn records', () => {
  it('refer to what the previous request shared and write out the rest', () => {
    const records = encodeAll(turns);
    expect(records[0]).toMatchObject({ keep: 0, tools: [tool], promptTokenIds: { keep: 0 } });
    expect(records[1]).toMatchObject({ keep: 1, promptTokenIds: { keep: 2, append: [9, 10, 11] } });
    expect(records[1]?.tools).toBeUndefined();
    expect(records[1]?.append).toHaveLength(3);
    // Turn 2 extends turn 1 exactly; the tools went away, which the record says with [].
    expect(records[2]).toMatchObject({ keep: 4, tools: [], promptTokenIds: { keep: 5, append: [12, 13] } });
  });

  it('expand back to every turn exactly, from the steps of a stored trajectory', () => {
    const records = encodeAll(turns);
    const steps: TrajectoryStep[] = records.map((chat, index) =>
      JSON.parse(
        JSON.stringify({
          index,
          observation: `obs${index}`,
          action: 'x',
          reward: 0,
          done: false,
          info: { chat },
        }),
      ),
    );
    const expanded = chatTurnsOf(steps);
    expect(expanded[0]).toEqual(turns[0]);
    expect(expanded[1]).toEqual(turns[1]);
    const { tools: _, ...last } = turns[2] as ChatTurn;
    expect(expanded[2]).toEqual(last);
  });

  it('leave out a step without a record and the steps that lean on it', () => {
    const records = encodeAll(turns);
    const steps: TrajectoryStep[] = [
      { index: 0, observation: '', action: '', reward: 0, done: false },
      { index: 1, observation: '', action: '', reward: 0, done: false, info: { chat: records[1] } },
      // Self-contained after the gap: encoded against nothing.
      {
        index: 2,
        observation: '',
        action: '',
        reward: 0,
        done: false,
        info: { chat: encodeChatTurn(undefined, turns[2] as ChatTurn) },
      },
    ];
    const expanded = chatTurnsOf(steps);
    expect(expanded[0]).toBeUndefined();
    expect(expanded[1]).toBeUndefined();
    expect(expanded[2]?.messages).toEqual(turns[2]?.messages);
    expect(() => applyChatTurn(undefined, records[1] as never)).toThrow(/repeats 1 messages/);
  });
});
