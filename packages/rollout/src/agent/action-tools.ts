import type { ToolDefinition } from '@skillrl/core';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { canonicalJson } from '../cache/canonical-json.js';

/** The function tool through which the model acts in the environment. */
export const ACT_TOOL = 'act';

/** The tools offered in tools mode: `act` (its `action` enumerated when the environment can) and the task's tools. */
export function buildTools(
  admissibleActions?: string[],
  taskTools?: ToolDefinition[],
): ChatCompletionFunctionTool[] {
  const action: Record<string, unknown> = {
    type: 'string',
    description: 'One action, exactly as the environment accepts it.',
  };
  if (admissibleActions && admissibleActions.length > 0) action.enum = admissibleActions;
  const tools: ChatCompletionFunctionTool[] = [
    {
      type: 'function',
      function: {
        name: ACT_TOOL,
        description: 'Take one action in the environment.',
        parameters: {
          type: 'object',
          properties: { action },
          required: ['action'],
          additionalProperties: false,
        },
      },
    },
  ];
  for (const tool of taskTools ?? []) {
    tools.push({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    });
  }
  return tools;
}

export interface ToolCallInput {
  id: string;
  name: string;
  arguments: string;
}

export interface DecodedToolCall {
  action: string;
  invalid: boolean;
  /** Kept on the step so the conversation can be replayed with the same tool-call ids. */
  toolCall: ToolCallInput;
  /** Parsed arguments of a task tool, for `execute`. */
  toolArgs?: Record<string, unknown>;
  error?: string;
}

/**
 * Turns a tool call into an action. `act` gives its `action` argument; a task tool gives
 * `name(<canonical JSON arguments>)`. Arguments that are not a JSON object, an unknown tool or a missing
 * `action` make an invalid action (the episode goes on) rather than an exception.
 */
export function decodeToolCall(call: ToolCallInput, taskTools?: ToolDefinition[]): DecodedToolCall {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments || '{}');
  } catch (error) {
    return {
      action: '',
      invalid: true,
      toolCall: call,
      error: `malformed tool-call arguments: ${(error as Error).message}`,
    };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    return { action: '', invalid: true, toolCall: call, error: 'tool-call arguments are not a JSON object' };
  }
  const record = args as Record<string, unknown>;
  if (call.name === ACT_TOOL) {
    const action = typeof record.action === 'string' ? record.action.trim() : '';
    if (!action)
      return { action: '', invalid: true, toolCall: call, error: 'act was called without an action' };
    return { action, invalid: false, toolCall: call };
  }
  if (!taskTools?.some((tool) => tool.name === call.name)) {
    return { action: '', invalid: true, toolCall: call, error: `unknown tool "${call.name}"` };
  }
  return {
    action: `${call.name}(${canonicalJson(record)})`,
    invalid: false,
    toolCall: call,
    toolArgs: record,
  };
}
