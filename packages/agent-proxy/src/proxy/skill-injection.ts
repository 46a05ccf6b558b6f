import type { Skill } from '@skillrl/core';
import { renderSkill } from '@skillrl/rollout';

/**
 * The default injected text: rollout's `DEFAULT_SKILL_TEMPLATE`, the same block the openai agent puts in
 * its system prompt, so a skill reads the same to a program as to skillrl's own agent:
 *
 * ```
 * Follow this skill where it applies:
 *
 * <skill name="{{name}}">
 * {{description}}
 *
 * {{body}}
 * </skill>
 * ```
 */
export function defaultSkillTemplate(skill: Skill): string {
  return renderSkill(skill);
}

interface Message {
  role?: unknown;
  content?: unknown;
  [key: string]: unknown;
}

const SYSTEM_ROLES = new Set(['system', 'developer']);

/**
 * The messages with `skillText` in front of the first system (or `developer`) message's content, separated
 * by a blank line, or as a new system message at the start when there is none. Content given as parts gets
 * the skill as a leading text part. The input array and its messages are left as they are.
 */
export function injectSkill(messages: readonly unknown[], skillText: string): unknown[] {
  const at = messages.findIndex(
    (m) => m !== null && typeof m === 'object' && SYSTEM_ROLES.has((m as Message).role as string),
  );
  if (at < 0) return [{ role: 'system', content: skillText }, ...messages];
  const message = messages[at] as Message;
  const content = message.content;
  let injected: unknown;
  if (Array.isArray(content)) injected = [{ type: 'text', text: skillText }, ...content];
  else if (typeof content === 'string' && content.length > 0) injected = `${skillText}\n\n${content}`;
  else injected = skillText;
  const out = messages.slice();
  out[at] = { ...message, content: injected };
  return out;
}
