export { formatSkill, skillHash } from './format-skill.js';
export { type ParseSkillOptions, parseSkill } from './parse-skill.js';
export { readSkillFolder } from './read-skill-folder.js';
export { skillForFamily } from './skill-for-family.js';
export {
  assertValidSkill,
  FAMILIES_METADATA_KEY,
  SKILL_BODY_WARN_LINES,
  SKILL_COMPATIBILITY_MAX,
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  type SkillValidation,
  type ValidateSkillOptions,
  validateSkill,
} from './validate-skill.js';
