import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ActResult } from './episode-handler.js';

/** The line that ends an observation when the environment says the episode is done. */
export const EPISODE_DONE_LINE = '[episode done]';

/** Whether the episode is over: the environment said done, or the runner ended it (`ended`). */
export function isOver(result: ActResult): boolean {
  return result.done || result.ended !== undefined;
}

/** The observation as the model reads it: the text, then a last line when the episode is over. */
export function observationText(result: ActResult): string {
  if (result.ended !== undefined) return `${result.observation}\n\n[episode ended: ${result.ended}]`;
  if (result.done) return `${result.observation}\n\n${EPISODE_DONE_LINE}`;
  return result.observation;
}

/**
 * An observation as a tool result. The text block is the observation (what a model reads), and
 * `structuredContent` carries the same facts as fields for a program. The spec suggests the serialized JSON as
 * the text for clients that predate structured content; the observation serves those clients better.
 */
export function observationResult(result: ActResult): CallToolResult {
  return {
    content: [{ type: 'text', text: observationText(result) }],
    structuredContent: {
      observation: result.observation,
      done: isOver(result),
      ...(result.ended !== undefined ? { ended: result.ended } : {}),
    },
  };
}

/** Text when the environment does not enumerate its actions. */
export const NO_ADMISSIBLE_ACTIONS = 'This environment lists no admissible actions.';

export function admissibleActionsText(actions: readonly string[] | undefined): string {
  if (actions === undefined) return NO_ADMISSIBLE_ACTIONS;
  return actions.length === 0 ? 'No action is admissible now.' : actions.join('\n');
}

export function admissibleActionsResult(actions: readonly string[] | undefined): CallToolResult {
  return {
    content: [{ type: 'text', text: admissibleActionsText(actions) }],
    structuredContent: { listed: actions !== undefined, actions: [...(actions ?? [])] },
  };
}

/**
 * A failure the model can read and act on: per MCP's tools guidance, errors from the tool itself (the
 * episode is over, an argument is missing) are results with `isError`, not protocol errors.
 */
export function errorResult(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: 'text', text: message || 'the tool call failed' }] };
}
