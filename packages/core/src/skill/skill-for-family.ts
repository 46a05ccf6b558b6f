import type { Skill } from '../contracts/skill.js';

/**
 * The most specific skill for `family`: of the skills that list it in `families`, the one that lists the
 * fewest (a family's own skill beats a general one that lists every family), the earliest on ties.
 * Undefined when no skill lists the family. Skill-R1's starting skill s0, SKILLC's per-family skill file and
 * `skillrl eval`'s with-skill side all pick a family's skill this way.
 */
export function skillForFamily(skills: readonly Skill[], family: string): Skill | undefined {
  let best: Skill | undefined;
  for (const skill of skills) {
    const listed = skill.families;
    if (!listed?.includes(family)) continue;
    if (!best || listed.length < (best.families?.length ?? 0)) best = skill;
  }
  return best;
}
