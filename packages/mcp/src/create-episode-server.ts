import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { EpisodeState } from './episode-state.js';
import { ADMISSIBLE_ACTIONS_URI, EPISODE_TOOL_NAMES } from './episode-tools.js';
import {
  admissibleActionsResult,
  admissibleActionsText,
  errorResult,
  observationResult,
} from './tool-result.js';

/** JSON-RPC error code MCP uses for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
/** JSON-RPC invalid params: MCP's answer to a call of a tool the server does not have. */
const INVALID_PARAMS = -32602;

/** What `initialize` tells the model about the server. */
export const EPISODE_INSTRUCTIONS =
  'One episode of a task. Call `observe` to read the task, `act` to take an action in the environment ' +
  '(`admissible_actions` lists the valid ones when the environment enumerates them), the task tools to look ' +
  'things up, and `submit` with your final answer to end the episode.';

function stringArgument(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string') {
    throw new TypeError(
      `the argument "${key}" must be a string, got ${value === undefined ? 'nothing' : typeof value}`,
    );
  }
  return value;
}

/**
 * The MCP server of one session: the episode's tools over the episode's state, kept apart from the transport
 * (the same episode may have more than one session, each with its own `Server`).
 */
export function createEpisodeServer(
  state: EpisodeState,
  tools: readonly Tool[],
  info: { name: string; version: string },
): Server {
  const server = new Server(
    { name: info.name, version: info.version },
    { capabilities: { tools: {}, resources: {} }, instructions: EPISODE_INSTRUCTIONS },
  );
  const taskTools = new Set(state.handler.tools.map((t) => t.name));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const known = (Object.values(EPISODE_TOOL_NAMES) as string[]).includes(name) || taskTools.has(name);
    // An unknown tool is a protocol error (the caller asked for something that is not there); everything the
    // episode answers, failures included, is a tool result the model reads.
    if (!known) throw new McpError(INVALID_PARAMS, `Unknown tool: ${name}`);
    try {
      switch (name) {
        case EPISODE_TOOL_NAMES.observe:
          return observationResult(await state.observe());
        case EPISODE_TOOL_NAMES.act:
          return observationResult(await state.act(stringArgument(args, 'action')));
        case EPISODE_TOOL_NAMES.submit:
          return observationResult(await state.submit(stringArgument(args, 'answer')));
        case EPISODE_TOOL_NAMES.admissibleActions:
          return admissibleActionsResult(await state.admissibleActions());
        default:
          return observationResult(await state.callTool(name, args));
      }
    } catch (error) {
      return errorResult(error);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: ADMISSIBLE_ACTIONS_URI,
        name: 'admissible-actions',
        title: 'Admissible actions',
        description: 'The actions the environment accepts now, one per line (the `admissible_actions` tool).',
        mimeType: 'text/plain',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== ADMISSIBLE_ACTIONS_URI) {
      throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri}`, {
        uri: request.params.uri,
      });
    }
    const text = admissibleActionsText(await state.admissibleActions());
    return { contents: [{ uri: ADMISSIBLE_ACTIONS_URI, mimeType: 'text/plain', text }] };
  });

  return server;
}
