import type { Skill } from '@skillrl/core';

/**
 * The skill each family trains with: the most specific skill that lists the family (a family skill beats
 * a general one that lists every family).
 */
export function familySkills(families: readonly string[], skills: readonly Skill[]): Record<string, Skill> {
  const out: Record<string, Skill> = {};
  for (const family of families) {
    const matching = skills.filter((s) => s.families?.includes(family));
    matching.sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0));
    if (matching[0]) out[family] = matching[0];
  }
  return out;
}

export interface SkillContexts {
  /** Per family, its own skill file's name (Pick and Pick2 share one in household, as in SKILL0). */
  files: Record<string, string>;
  /** General skill files: they list every family and are no family's own file. */
  general: string[];
}

/**
 * SKILL0's layout read off an adapter's skill inventory: one own file per family (the most specific skill
 * that lists it) and the general files beside them. A with-skill prompt carries the general sections plus
 * the family's own (`env_manager._get_skill_context` in ZJU-REAL/SkillZero).
 */
export function skillFiles(families: readonly string[], skills: readonly Skill[]): SkillContexts {
  const own = familySkills(families, skills);
  const owned = new Set(Object.values(own).map((s) => s.name));
  const general = skills
    .filter((s) => !owned.has(s.name) && families.every((f) => s.families?.includes(f)))
    .map((s) => s.name);
  return { files: Object.fromEntries(Object.entries(own).map(([f, s]) => [f, s.name])), general };
}
