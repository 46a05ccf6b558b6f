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
