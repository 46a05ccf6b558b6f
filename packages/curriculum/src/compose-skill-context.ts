import type { Skill } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';

/**
 * One skill that carries several skill files' text, in the order given: SKILL0's with-skill context
 * (`env_manager._get_skill_context` joins the GENERAL SKILLS section and the task's section with a blank
 * line). Pass `curriculum.withSkillFiles(family)` (or `testSkillFiles`) and the skills by name (an array,
 * e.g. the adapter's `skills()`, or a record keyed by file name).
 *
 * No file: undefined (the episode runs without a skill). One file: that skill unchanged. Several: the last
 * one (the task file, when there is one) with the bodies joined by a blank line, and
 * `metadata['skill-files']` listing the files, space-separated.
 */
export function composeSkillContext(
  files: readonly string[],
  skills: readonly Skill[] | Readonly<Record<string, Skill>>,
): Skill | undefined {
  const byName: Record<string, Skill> = Array.isArray(skills)
    ? Object.fromEntries((skills as readonly Skill[]).map((s) => [s.name, s]))
    : (skills as Record<string, Skill>);
  const parts = files.map((file) => {
    const skill = Object.hasOwn(byName, file) ? byName[file] : undefined;
    if (!skill) {
      throw new InvalidArgumentError(
        `skills.${file}`,
        'no skill of that name: pass a skill for every file named in the curriculum options `files` and `generalSkills`',
      );
    }
    return skill;
  });
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const last = parts[parts.length - 1]!;
  return {
    ...last,
    body: parts.map((p) => p.body.trim()).join('\n\n'),
    metadata: { ...last.metadata, 'skill-files': files.join(' ') },
  };
}
