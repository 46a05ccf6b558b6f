import { describe, expect, it } from 'vitest';
import { isUsableChoice, unusableReply } from './unusable-reply.js';

const choice = (message: unknown, finish_reason = 'stop') => ({ index: 0, message, finish_reason });
const call = (name: string) => ({ id: 'c', type: 'function', function: { name, arguments: '{}' } });

describe('unusableReply', () => {
  it('says what arrived', () => {
    expect(unusableReply({ object: 'chat.completion' }, 'text')).toBe(
      'the endpoint answered 200 with no choices field',
    );
    expect(unusableReply({ choices: [] }, 'text')).toBe(
      'the endpoint answered 200 with choices: [] (no choice)',
    );
    expect(unusableReply({ choices: {} }, 'text')).toBe(
      'the endpoint answered 200 with choices of type object (expected an array)',
    );
    expect(unusableReply('hello', 'text')).toBe(
      'the endpoint answered 200 with string instead of a completion object',
    );
    expect(unusableReply(null, 'text')).toBe(
      'the endpoint answered 200 with null instead of a completion object',
    );
    expect(
      unusableReply(
        { choices: [choice({ content: null, tool_calls: [call('read_file')] }, 'tool_calls')] },
        'text',
      ),
    ).toBe(
      'the endpoint answered 200 with a choice whose content is null and which has only a tool call (name read_file), finish_reason tool_calls (text was asked for)',
    );
    expect(
      unusableReply({ choices: [choice({ content: null, tool_calls: [call('a'), call('b')] })] }, 'text'),
    ).toContain('only tool calls (names a, b)');
    expect(unusableReply({ choices: [{ index: 0 }] }, 'text')).toBe(
      'the endpoint answered 200 with a choice with no message (text was asked for)',
    );
    expect(unusableReply({ choices: [choice({ role: 'assistant' })] }, 'text-or-tool-call')).toBe(
      'the endpoint answered 200 with a choice with no content and no tool call, finish_reason stop (text or a function call was expected)',
    );
  });

  it('passes a reply with one usable choice; a tool call is usable only where calls are', () => {
    expect(unusableReply({ choices: [choice({ content: '' })] }, 'text')).toBeUndefined();
    expect(
      unusableReply({ choices: [choice({ content: null }), choice({ content: 'x' })] }, 'text'),
    ).toBeUndefined();
    const toolOnly = { choices: [choice({ content: null, tool_calls: [call('act')] })] };
    expect(unusableReply(toolOnly, 'text-or-tool-call')).toBeUndefined();
    expect(unusableReply(toolOnly, 'text')).toBeDefined();
    expect(isUsableChoice(choice({ content: null, tool_calls: [] }), 'text-or-tool-call')).toBe(false);
  });

  it('a call the agent cannot decode is no reply: a custom tool, no function name, no type', () => {
    const custom = { id: 'c', type: 'custom', custom: { name: 'grep', input: 'x' } };
    expect(
      unusableReply({ choices: [choice({ content: null, tool_calls: [custom] })] }, 'text-or-tool-call'),
    ).toBe(
      'the endpoint answered 200 with a choice whose content is null and which has only a tool call (name ? (type custom, no function name: not a function call)), finish_reason stop (text or a function call was expected)',
    );
    const untyped = { id: 'c', function: { name: 'act', arguments: '{}' } };
    expect(
      unusableReply({ choices: [choice({ content: null, tool_calls: [untyped] })] }, 'text-or-tool-call'),
    ).toContain('only a tool call (name act (no type: not a function call))');
    // Beside a function call, or with text, it does not make the choice unusable.
    expect(
      isUsableChoice(choice({ content: null, tool_calls: [custom, call('act')] }), 'text-or-tool-call'),
    ).toBe(true);
    expect(isUsableChoice(choice({ content: '', tool_calls: [custom] }), 'text')).toBe(true);
  });
});
