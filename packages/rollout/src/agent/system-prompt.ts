import type { AgentContext, Condition, Skill, Task, ToolDefinition } from '@skillrl/core';

export type AgentMode = 'text' | 'tools';

/** What a system-prompt template can use. `skill` is present only under condition 1. */
export interface SystemPromptInput {
  task: Task;
  skill?: Skill;
  condition: Condition;
  mode: AgentMode;
  admissibleActions?: string[];
  tools?: ToolDefinition[];
}

/**
 * A string with `{{skill}}`, `{{format}}` and `{{family}}` placeholders, or a function. `{{skill}}` becomes
 * the rendered skill block under condition 1 and nothing under condition 0, so the two prompts differ only
 * by the skill.
 */
export type SystemPromptTemplate = string | ((input: SystemPromptInput) => string);

export const DEFAULT_SYSTEM_PROMPT = `You are an agent that completes tasks in a text environment, one action at a time.

{{skill}}

{{format}}`;

/** `{{name}}`, `{{description}}` and `{{body}}` come from the skill. */
export const DEFAULT_SKILL_TEMPLATE = `Follow this skill where it applies:

<skill name="{{name}}">
{{description}}

{{body}}
</skill>`;

export const DEFAULT_FORMAT_INSTRUCTIONS: Record<AgentMode, string> = {
  text: 'Think briefly if you need to, then give exactly one action in the form <action>your action</action>.',
  tools:
    'Take exactly one action per turn by calling a tool; use the `act` tool for actions in the environment.',
};

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

export function renderSkill(skill: Skill, template: string = DEFAULT_SKILL_TEMPLATE): string {
  return fill(template, { name: skill.name, description: skill.description, body: skill.body.trim() });
}

/** Renders the system prompt; blank lines left by an empty placeholder are collapsed. */
export function renderSystemPrompt(
  template: SystemPromptTemplate,
  input: SystemPromptInput,
  skillTemplate?: string,
): string {
  if (typeof template === 'function') return template(input);
  const skill = input.condition === 1 && input.skill ? renderSkill(input.skill, skillTemplate) : '';
  return fill(template, { skill, format: DEFAULT_FORMAT_INSTRUCTIONS[input.mode], family: input.task.family })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * What the system prompt of one decision is rendered from, for every LLM agent alike: the skill only under
 * condition 1 (a function template never sees the skill of a without-skill episode), the admissible actions
 * and the task's tools when the decision has them.
 */
export function systemPromptInput(context: AgentContext, mode: AgentMode): SystemPromptInput {
  const skill = context.condition === 1 ? context.skill : undefined;
  return {
    task: context.task,
    condition: context.condition,
    mode,
    ...(skill ? { skill } : {}),
    ...(context.admissibleActions ? { admissibleActions: context.admissibleActions } : {}),
    ...(context.tools ? { tools: context.tools } : {}),
  };
}
