import type { AgentContext } from '@skillrl/core';

/**
 * Set by `runEpisode` on the context of an episode's last decision when the task has tools the runner
 * executes (`read_file`, `web_search`…): a tool call there could never be followed by an answer, so the
 * budget of tool calls is spent and the agent must answer now. An agent that knows it (the openai agent)
 * sends that request without tools and with `notice`; a tool call made anyway is never the answer.
 */
export interface ToolBudget {
  /** The tool calls the episode was allowed: its step limit less the answering step. */
  maxCalls: number;
  /** What the model is told: "Tool budget spent (maxCalls N): answer now in plain text, no tool calls." */
  notice: string;
}

/**
 * The context of a decision, with the tool budget when it is spent. (Core's `AgentContext` does not carry it
 * yet; the field rides on the context object, so agents that do not know it see a plain context.)
 */
export type ToolBudgetContext = AgentContext & { toolBudget?: ToolBudget };

export function toolBudgetNotice(maxCalls: number): string {
  return `Tool budget spent (maxCalls ${maxCalls}): answer now in plain text, no tool calls.`;
}

/** The spent tool budget of this decision, when it is the episode's last with runner-executed tools. */
export function spentToolBudget(context: AgentContext): ToolBudget | undefined {
  const budget = (context as ToolBudgetContext).toolBudget;
  return budget && typeof budget.notice === 'string' ? budget : undefined;
}
