import type { AgentContext, ToolBudget } from '@skillrl/core';

/**
 * `runEpisode` sets core's `AgentContext.toolBudget` on an episode's last decision when the task has tools
 * the runner executes (`read_file`, `web_search`…): a tool call there could never be followed by an answer,
 * so the budget of tool calls is spent and the agent must answer now. The openai agent sends that request
 * without tools and with `notice`; a tool call made anyway is never the answer.
 */
export type { ToolBudget };

/** The context of a decision, with the tool budget when it is spent (kept for callers of 0.x). */
export type ToolBudgetContext = AgentContext;

export function toolBudgetNotice(maxCalls: number): string {
  return `Tool budget spent (maxCalls ${maxCalls}): answer now in plain text, no tool calls.`;
}

/** The spent tool budget of this decision, when it is the episode's last with runner-executed tools. */
export function spentToolBudget(context: AgentContext): ToolBudget | undefined {
  const budget = (context as ToolBudgetContext).toolBudget;
  return budget && typeof budget.notice === 'string' ? budget : undefined;
}
