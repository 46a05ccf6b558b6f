import { InvalidArgumentError } from '@skillrl/core';

/** The editor's prompt: a system message and a user message, each with `{{placeholder}}`s. */
export interface EditorTemplate {
  system: string;
  user: string;
}

/**
 * What a template may refer to:
 * - `{{task.id}}`, `{{task.family}}`, `{{task.prompt}}`: the task instance x;
 * - `{{generation}}`: the generation being written (1 for the first revision);
 * - `{{currentSkill}}`: the skill carried into this generation as a fenced SKILL.md, or a line saying there is none;
 * - `{{history}}`: H_{g−1} as markdown (`renderHistory`): earlier skills with rewards, failed and successful episodes;
 * - `{{rejections}}`: on a retry, what was wrong with the earlier replies (a section ending in a blank line);
 *   empty otherwise, so a first prompt reads as if the placeholder were not there.
 */
export const EDITOR_PLACEHOLDERS = [
  'task.id',
  'task.family',
  'task.prompt',
  'generation',
  'currentSkill',
  'history',
  'rejections',
] as const;

export type EditorPlaceholder = (typeof EDITOR_PLACEHOLDERS)[number];

export const DEFAULT_EDITOR_SYSTEM = `You are a skill editor. A skill is a reusable procedure, written as an Agent Skills SKILL.md file, that a frozen task model reads before it attempts a task. Your revisions are judged only by how often the task model then succeeds.

Reply with exactly one SKILL.md inside a \`\`\`markdown fenced block:
- it starts with YAML frontmatter between two \`---\` lines, with \`name\` (1-64 characters: lowercase letters, digits and single hyphens) and \`description\` (what the skill does and when to use it, at most 1024 characters);
- then the markdown body: short, concrete, executable steps, with checks that prevent the failures seen so far.
Keep what worked, change what failed, and do not copy incidental details of a single episode into the skill.`;

export const DEFAULT_EDITOR_USER = `## Task

Family: {{task.family}}
Task: {{task.prompt}}

## Current skill

{{currentSkill}}

{{history}}
{{rejections}}## Your revision (generation {{generation}})

Write the improved SKILL.md.`;

export const DEFAULT_EDITOR_TEMPLATE: EditorTemplate = {
  system: DEFAULT_EDITOR_SYSTEM,
  user: DEFAULT_EDITOR_USER,
};

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KNOWN = new Set<string>(EDITOR_PLACEHOLDERS);

/**
 * Checks a template (a partial one is completed from the default) and returns it. An unknown placeholder is
 * an error here, at creation, rather than a literal `{{typo}}` in every prompt of a run.
 */
export function resolveEditorTemplate(template: Partial<EditorTemplate> = {}): EditorTemplate {
  if (typeof template !== 'object' || template === null) {
    throw new InvalidArgumentError('options.template', 'expected { system?: string, user?: string }');
  }
  const resolved: EditorTemplate = {
    system: template.system ?? DEFAULT_EDITOR_SYSTEM,
    user: template.user ?? DEFAULT_EDITOR_USER,
  };
  for (const part of ['system', 'user'] as const) {
    const text = resolved[part];
    if (typeof text !== 'string') {
      throw new InvalidArgumentError(`options.template.${part}`, `expected a string, got ${typeof text}`);
    }
    for (const match of text.matchAll(PLACEHOLDER)) {
      const name = match[1] ?? '';
      if (!KNOWN.has(name)) {
        throw new InvalidArgumentError(
          `options.template.${part}`,
          `unknown placeholder {{${name}}}; use one of ${EDITOR_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`,
        );
      }
    }
  }
  return resolved;
}

/**
 * Fills the placeholders in one pass, so a value that itself contains `{{…}}` (a task prompt quoting a
 * template, say) is inserted as written and never expanded.
 */
export function renderEditorTemplate(text: string, values: Record<EditorPlaceholder, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    KNOWN.has(name) ? values[name as EditorPlaceholder] : whole,
  );
}
