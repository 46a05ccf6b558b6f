import type { AgentContext } from '@skillrl/core';
import type { TemplateMessage } from '../tokenizer/load-chat-tokenizer.js';

function withActions(observation: string, context: AgentContext): string {
  if (!context.admissibleActions?.length) return observation;
  return `${observation}\n\nAdmissible actions: ${context.admissibleActions.join(', ')}`;
}

/**
 * The transcript of one decision, as `@skillrl/rollout`'s openai agent writes it in text mode: the system
 * prompt (with the skill under condition 1), the task and first observation, then each past step as the
 * model's reply and the environment's answer; the admissible actions follow the newest observation.
 */
export function buildMessages(
  context: AgentContext,
  system: string,
  historyWindow?: number,
): TemplateMessage[] {
  const { history, task } = context;
  const window = historyWindow ?? history.length;
  const kept = window >= history.length ? history : history.slice(history.length - window);
  const first = kept[0]?.observation ?? context.observation;
  const opening = first.includes(task.prompt) ? first : `${task.prompt}\n\n${first}`;
  const messages: TemplateMessage[] = [{ role: 'system', content: system }];
  if (kept.length < history.length) {
    messages.push({
      role: 'user',
      content: `${task.prompt}\n\n(${history.length - kept.length} earlier steps omitted)`,
    });
  }
  messages.push({ role: 'user', content: kept.length === 0 ? withActions(opening, context) : opening });
  kept.forEach((step, i) => {
    const next = kept[i + 1]?.observation ?? context.observation;
    const shown = i === kept.length - 1 ? withActions(next, context) : next;
    const raw = typeof step.info?.raw === 'string' ? step.info.raw : step.action;
    messages.push({ role: 'assistant', content: raw });
    messages.push({ role: 'user', content: shown });
  });
  return messages;
}
