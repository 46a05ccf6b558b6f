import type { AgentContext, Task, TrajectoryStep } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { buildChatTranscript } from './build-chat-transcript.js';

// The one renderer of every LLM agent's prompt (the openai agent, trainer-tinker's Tinker agent), and so of
// every exported chat row: the expected transcripts below are written out by hand.

const task: Task = { id: 't1', family: 'put', split: 'train', prompt: 'Put the apple in the fridge.' };

function step(
  index: number,
  observation: string,
  action: string,
  info?: Record<string, unknown>,
): TrajectoryStep {
  return { index, observation, action, reward: 0, done: false, ...(info ? { info } : {}) };
}

function context(over: Partial<AgentContext> = {}): AgentContext {
  return {
    task,
    condition: 0,
    observation: 'You are in the kitchen.',
    history: [],
    stepIndex: 0,
    ...over,
  };
}

describe('buildChatTranscript', () => {
  it('first decision in text mode: the task before the observation, then the admissible actions', () => {
    expect(
      buildChatTranscript(context({ admissibleActions: ['go to fridge', 'look'] }), {
        system: 'SYS',
        mode: 'text',
      }),
    ).toEqual([
      { role: 'system', content: 'SYS' },
      {
        role: 'user',
        content:
          'Put the apple in the fridge.\n\nYou are in the kitchen.\n\nAdmissible actions: go to fridge, look',
      },
    ]);
  });

  it('an observation that already states the task is not prefixed with it again', () => {
    expect(
      buildChatTranscript(context({ observation: 'Task: Put the apple in the fridge. You see a fridge.' }), {
        system: 'SYS',
        mode: 'text',
      }),
    ).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'Task: Put the apple in the fridge. You see a fridge.' },
    ]);
  });

  it('history in text mode: the raw reply as the assistant turn, the actions after the newest observation only', () => {
    const history = [
      step(0, 'You are in the kitchen.', 'go to fridge', { raw: '<action>go to fridge</action>' }),
      step(1, 'The fridge is closed.', 'open fridge'),
    ];
    expect(
      buildChatTranscript(
        context({
          history,
          stepIndex: 2,
          observation: 'The fridge is open.',
          admissibleActions: ['take apple'],
        }),
        { system: 'SYS', mode: 'text' },
      ),
    ).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'Put the apple in the fridge.\n\nYou are in the kitchen.' },
      { role: 'assistant', content: '<action>go to fridge</action>' },
      { role: 'user', content: 'The fridge is closed.' },
      { role: 'assistant', content: 'open fridge' },
      { role: 'user', content: 'The fridge is open.\n\nAdmissible actions: take apple' },
    ]);
  });

  it('a history window says how many steps it left out, and opens at the first step it keeps', () => {
    const history = [step(0, 'A', 'a1'), step(1, 'B', 'b1'), step(2, 'C', 'c1')];
    expect(
      buildChatTranscript(context({ history, stepIndex: 3, observation: 'D' }), {
        system: 'SYS',
        mode: 'text',
        historyWindow: 1,
      }),
    ).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'Put the apple in the fridge.\n\n(2 earlier steps omitted)' },
      { role: 'user', content: 'Put the apple in the fridge.\n\nC' },
      { role: 'assistant', content: 'c1' },
      { role: 'user', content: 'D' },
    ]);
  });

  it('tools mode: a tool-call step is an assistant tool call and a tool answer; no actions listed', () => {
    const history = [
      step(0, 'You are in the kitchen.', 'look', {
        raw: '',
        toolCall: { id: 'call_1', name: 'act', arguments: '{"action":"look"}' },
      }),
    ];
    expect(
      buildChatTranscript(
        context({ history, stepIndex: 1, observation: 'You see a fridge.', admissibleActions: ['look'] }),
        { system: 'SYS', mode: 'tools' },
      ),
    ).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'Put the apple in the fridge.\n\nYou are in the kitchen.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'act', arguments: '{"action":"look"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'You see a fridge.' },
    ]);
  });

  it('a spent tool budget: its notice joins the last user turn, or follows a tool answer in a user turn of its own', () => {
    const toolBudget = { maxCalls: 1, notice: 'Answer now.' };
    expect(buildChatTranscript(context({ toolBudget }), { system: 'SYS', mode: 'text' }).at(-1)).toEqual({
      role: 'user',
      content: 'Put the apple in the fridge.\n\nYou are in the kitchen.\n\nAnswer now.',
    });
    const history = [
      step(0, 'You are in the kitchen.', '', {
        raw: 'searching',
        toolCall: { id: 'call_1', name: 'search', arguments: '{}' },
      }),
    ];
    expect(
      buildChatTranscript(context({ history, stepIndex: 1, observation: 'found it', toolBudget }), {
        system: 'SYS',
        mode: 'tools',
      }).slice(2),
    ).toEqual([
      {
        role: 'assistant',
        content: 'searching',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'found it' },
      { role: 'user', content: 'Answer now.' },
    ]);
  });
});
