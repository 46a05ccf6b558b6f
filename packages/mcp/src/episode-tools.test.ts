import { InvalidArgumentError, type JsonObject, type ToolDefinition } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { EPISODE_TOOL_NAMES, episodeTools } from './episode-tools.js';

const tool = (name: string, parameters: JsonObject = { type: 'object', properties: {} }): ToolDefinition => ({
  name,
  description: `the ${name} tool`,
  parameters,
});

describe('episodeTools', () => {
  it('serves the built-ins first, then each task tool with its own schema and the observation output', () => {
    const search = tool('web_search', {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    });
    const tools = episodeTools([search]);
    expect(tools.map((t) => t.name)).toEqual([...Object.values(EPISODE_TOOL_NAMES), 'web_search']);
    expect(tools.at(-1)).toMatchObject({
      description: 'the web_search tool',
      inputSchema: search.parameters,
    });
    expect(tools.at(-1)?.outputSchema?.required).toEqual(['observation', 'done']);
  });

  it('an input schema is always an object schema (MCP requires type "object")', () => {
    expect(episodeTools([tool('ping', {})]).at(-1)?.inputSchema).toEqual({ type: 'object' });
  });

  it('refuses a built-in name, a name served twice and an empty name, naming the tool', () => {
    const refusal = (tools: ToolDefinition[]) => {
      try {
        episodeTools(tools);
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal([tool('submit')])).toMatch(
      /handler\.tools\[0\]\.name.*"submit" is the name of a built-in/,
    );
    expect(refusal([tool('a'), tool('a')])).toMatch(/handler\.tools\[1\]\.name.*"a" is served twice/);
    expect(refusal([tool('')])).toMatch(/handler\.tools\[0\]\.name.*non-empty/);
  });
});
