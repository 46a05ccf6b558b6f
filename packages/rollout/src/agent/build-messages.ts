import type { AgentContext, TrajectoryStep } from '@skillrl/core';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ToolCallInput } from './action-tools.js';
import type { AgentMode } from './system-prompt.js';

export interface BuildMessagesOptions {
  system: string;
  mode: AgentMode;
  /** Keep only the last N steps of history in the prompt. Default: all. */
  historyWindow?: number;
}

function toolCallOf(step: TrajectoryStep): ToolCallInput | undefined {
  const call = step.info?.toolCall as ToolCallInput | undefined;
  return call && typeof call.id === 'string' && typeof call.name === 'string' ? call : undefined;
}

function withActions(observation: string, context: AgentContext, mode: AgentMode): string {
  // In tools mode the admissible actions are the `act` tool's enum; listing them twice only costs tokens.
  if (mode === 'tools' || !context.admissibleActions?.length) return observation;
  return `${observation}\n\nAdmissible actions: ${context.admissibleActions.join(', ')}`;
}

/**
 * The chat transcript for one decision: the system prompt, the task and first observation, then each past
 * step as the model's own turn followed by what the environment answered (a `tool` message when the step
 * was a tool call).
 */
export function buildMessages(
  context: AgentContext,
  options: BuildMessagesOptions,
): ChatCompletionMessageParam[] {
  const { history, task } = context;
  const window = options.historyWindow ?? history.length;
  const kept = window >= history.length ? history : history.slice(history.length - window);
  const first = kept[0]?.observation ?? context.observation;
  const opening = first.includes(task.prompt) ? first : `${task.prompt}\n\n${first}`;
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: options.system }];
  if (kept.length < history.length) {
    messages.push({
      role: 'user',
      content: `${task.prompt}\n\n(${history.length - kept.length} earlier steps omitted)`,
    });
  }
  messages.push({
    role: 'user',
    content: kept.length === 0 ? withActions(opening, context, options.mode) : opening,
  });
  kept.forEach((step, i) => {
    const next = kept[i + 1]?.observation ?? context.observation;
    const shown = i === kept.length - 1 ? withActions(next, context, options.mode) : next;
    const raw = typeof step.info?.raw === 'string' ? step.info.raw : step.action;
    const call = toolCallOf(step);
    if (call) {
      messages.push({
        role: 'assistant',
        content: raw || null,
        tool_calls: [
          { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
        ],
      });
      messages.push({ role: 'tool', tool_call_id: call.id, content: shown });
    } else {
      messages.push({ role: 'assistant', content: raw });
      messages.push({ role: 'user', content: shown });
    }
  });
  return messages;
}
