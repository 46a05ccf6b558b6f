import type { ToolDefinition } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { ACT_TOOL, buildTools, decodeToolCall } from './action-tools.js';

const search: ToolDefinition = {
  name: 'search',
  description: 'Search the web.',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
};

describe('tool-mode actions', () => {
  it('offers act with the admissible actions as an enum, then the task tools', () => {
    const tools = buildTools(['look', 'go north'], [search]);
    expect(tools.map((t) => t.function.name)).toEqual([ACT_TOOL, 'search']);
    expect(JSON.stringify(tools[0]?.function.parameters)).toContain('"enum":["look","go north"]');
    expect(JSON.stringify(buildTools()[0]?.function.parameters)).not.toContain('enum');
  });

  it('decodes act and task tools, and turns bad calls into invalid actions', () => {
    const call = (name: string, args: string) =>
      decodeToolCall({ id: 'c1', name, arguments: args }, [search]);
    expect(call('act', '{"action":" look "}')).toMatchObject({ action: 'look', invalid: false });
    expect(call('search', '{"query":"x","a":1}')).toMatchObject({
      action: 'search({"a":1,"query":"x"})',
      invalid: false,
      toolArgs: { query: 'x', a: 1 },
    });
    expect(call('act', '{"action": "lo')).toMatchObject({
      invalid: true,
      error: /malformed tool-call arguments/,
    });
    expect(call('act', '[1]')).toMatchObject({ invalid: true, error: /not a JSON object/ });
    expect(call('act', '{}')).toMatchObject({ invalid: true, error: /without an action/ });
    expect(call('fly', '{}')).toMatchObject({ invalid: true, error: 'unknown tool "fly"' });
  });
});
