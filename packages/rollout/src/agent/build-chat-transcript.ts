import type { AgentContext, ChatTurnToolCall, TrajectoryStep } from '@skillrl/core';
import { spentToolBudget } from '../episode/tool-budget.js';
import type { ToolCallInput } from './action-tools.js';
import type { AgentMode } from './system-prompt.js';

export interface ChatTranscriptOptions {
  /** The rendered system prompt (`renderSystemPrompt` of `systemPromptInput(context, mode)`). */
  system: string;
  mode: AgentMode;
  /** Keep only the last N steps of history in the prompt. Default: all. */
  historyWindow?: number;
}

/**
 * One message of a transcript: a subset of the OpenAI chat message shapes (every one is a valid
 * `ChatCompletionMessageParam`), and what an agent records as core's `ChatTurnMessage`.
 */
export type ChatTranscriptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatTurnToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

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
 * The chat transcript of one decision, the one every LLM agent's prompt is rendered from (the openai agent
 * here, trainer-tinker's Tinker agent): the system prompt, the task and first observation, then each past
 * step as the model's own turn followed by what the environment answered (a `tool` message when the step was
 * a tool call); in text mode the admissible actions follow the newest observation. On the last decision of an
 * episode whose tool budget is spent, the budget's notice closes the transcript in a user turn. What an agent
 * records of it (`step.info.chat`) is what `@skillrl/export` writes, so agents that render alike export alike.
 */
export function buildChatTranscript(
  context: AgentContext,
  options: ChatTranscriptOptions,
): ChatTranscriptMessage[] {
  const { history, task } = context;
  const window = options.historyWindow ?? history.length;
  const kept = window >= history.length ? history : history.slice(history.length - window);
  const first = kept[0]?.observation ?? context.observation;
  const opening = first.includes(task.prompt) ? first : `${task.prompt}\n\n${first}`;
  const messages: ChatTranscriptMessage[] = [{ role: 'system', content: options.system }];
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
  const budget = spentToolBudget(context);
  if (budget) {
    // The last turn: the answer, with no tools to call. Told in a user turn (after the last tool result);
    // appended to a user turn already last, for servers that want roles to alternate.
    const last = messages[messages.length - 1];
    if (last?.role === 'user') {
      messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${budget.notice}` };
    } else {
      messages.push({ role: 'user', content: budget.notice });
    }
  }
  return messages;
}
