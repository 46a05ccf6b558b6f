import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Skill } from '../contracts/skill.js';
import { assertValidSkill, FAMILIES_METADATA_KEY } from './validate-skill.js';

/**
 * Writes a skill as SKILL.md: `---`, the frontmatter in a fixed field order, `---`, then the body byte for
 * byte. `parseSkill(formatSkill(s))` equals `s`, and `formatSkill(parseSkill(t)) === t` for any `t` this
 * function wrote. Fields outside the spec that a lenient parse kept (`skill.extraFields`) are written after
 * the spec's fields, as they came. Throws `SkillFormatError` for a skill that breaks the rules (`extraFields`
 * aside: a skill holding them was read leniently, and is written back the same way).
 */
export function formatSkill(skill: Skill): string {
  assertValidSkill(skill, undefined, { lenient: true });
  const fm: Record<string, unknown> = { name: skill.name, description: skill.description };
  if (skill.license !== undefined) fm.license = skill.license;
  if (skill.compatibility !== undefined) fm.compatibility = skill.compatibility;
  if (skill.allowedTools !== undefined) fm['allowed-tools'] = skill.allowedTools.join(' ');
  // An empty metadata map is the same as none: it is not written, and parsing never returns one.
  const metadata: Record<string, string> = { ...(skill.metadata ?? {}) };
  if (skill.families !== undefined) metadata[FAMILIES_METADATA_KEY] = skill.families.join(' ');
  if (Object.keys(metadata).length > 0) fm.metadata = metadata;
  let yaml = stringify(fm, { lineWidth: 0, minContentWidth: 0 });
  // Client fields keep their plain scalars (`disable-model-invocation: true`, not "true"), so the client reads
  // the boolean or number it wrote; a failsafe reader (parseSkill) reads the same strings back.
  if (skill.extraFields !== undefined && Object.keys(skill.extraFields).length > 0) {
    yaml += stringify(skill.extraFields, { schema: 'failsafe', lineWidth: 0, minContentWidth: 0 });
  }
  return `---\n${yaml}---\n${skill.body}`;
}

/** A short content hash of the formatted skill, for `SkillRef.hash` and caches. */
export function skillHash(skill: Skill): string {
  return createHash('sha256').update(formatSkill(skill)).digest('hex').slice(0, 16);
}
