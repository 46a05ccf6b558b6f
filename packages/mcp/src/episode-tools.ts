import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError, type ToolDefinition } from '@skillrl/core';

/** The names of the tools every episode serves; a task tool may not take one of them. */
export const EPISODE_TOOL_NAMES = {
  observe: 'observe',
  act: 'act',
  admissibleActions: 'admissible_actions',
  submit: 'submit',
} as const;

/** The resource that lists the admissible actions (the same text as the `admissible_actions` tool). */
export const ADMISSIBLE_ACTIONS_URI = 'episode://admissible-actions';

const observationOutput: NonNullable<Tool['outputSchema']> = {
  type: 'object',
  properties: {
    observation: { type: 'string', description: 'What the environment answered.' },
    done: { type: 'boolean', description: 'Whether the episode is over.' },
    ended: { type: 'string', description: 'Why the episode ended, when not by the environment.' },
  },
  required: ['observation', 'done'],
};

const BUILT_IN_TOOLS: Tool[] = [
  {
    name: EPISODE_TOOL_NAMES.observe,
    title: 'Observe',
    description:
      'The current observation of the environment: the task as first stated, or what the environment answered ' +
      'to the last action. Takes no action.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: observationOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: EPISODE_TOOL_NAMES.act,
    title: 'Act',
    description:
      'Take one action in the environment, as a text command (for example "go to countertop 1"), and read what ' +
      `the environment answers. When the episode is over the text ends with a line such as "[episode done]".`,
    inputSchema: {
      type: 'object',
      properties: {
        action: { type: 'string', description: 'The action, exactly as the environment accepts it.' },
      },
      required: ['action'],
    },
    outputSchema: observationOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: EPISODE_TOOL_NAMES.admissibleActions,
    title: 'Admissible actions',
    description:
      'The actions the environment accepts now, one per line, when the environment enumerates them (otherwise ' +
      'it says so). Takes no action.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: {
      type: 'object',
      properties: {
        listed: { type: 'boolean', description: 'Whether this environment enumerates its actions.' },
        actions: { type: 'array', items: { type: 'string' } },
      },
      required: ['listed', 'actions'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: EPISODE_TOOL_NAMES.submit,
    title: 'Submit',
    description:
      'Submit the final answer to the task. This ends the episode; the result is the final observation.',
    inputSchema: {
      type: 'object',
      properties: { answer: { type: 'string', description: 'The final answer.' } },
      required: ['answer'],
    },
    outputSchema: observationOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
];

const BUILT_IN_NAMES = new Set<string>(Object.values(EPISODE_TOOL_NAMES));

/**
 * The tools one episode serves: the four built-ins, then the task's own tools under their own names, with
 * their `parameters` as the input schema and the observation as the output. Throws `InvalidArgumentError`
 * when a task tool takes a built-in's name or two share one: a silently shadowed tool would be worse.
 */
export function episodeTools(taskTools: readonly ToolDefinition[]): Tool[] {
  const seen = new Set<string>();
  const served: Tool[] = [];
  for (const [i, tool] of taskTools.entries()) {
    if (typeof tool?.name !== 'string' || tool.name === '') {
      throw new InvalidArgumentError(`handler.tools[${i}].name`, 'expected a non-empty string');
    }
    if (BUILT_IN_NAMES.has(tool.name)) {
      throw new InvalidArgumentError(
        `handler.tools[${i}].name`,
        `"${tool.name}" is the name of a built-in episode tool (${[...BUILT_IN_NAMES].join(', ')}); rename the task tool`,
      );
    }
    if (seen.has(tool.name)) {
      throw new InvalidArgumentError(`handler.tools[${i}].name`, `"${tool.name}" is served twice`);
    }
    seen.add(tool.name);
    const parameters = tool.parameters as Record<string, unknown> | undefined;
    served.push({
      name: tool.name,
      description: tool.description,
      // MCP requires an object schema; an adapter's function parameters are one (OpenAI function shape).
      inputSchema: { ...(parameters ?? {}), type: 'object' } as Tool['inputSchema'],
      outputSchema: observationOutput,
    });
  }
  return [...BUILT_IN_TOOLS, ...served];
}

/** Whether `name` is one of the built-in episode tools. */
export function isBuiltInTool(name: string): boolean {
  return BUILT_IN_NAMES.has(name);
}
