export { isToolName, type SplitAllowedTools, splitAllowedTools } from './allowed-tools.js';
export { formatSkill, skillHash } from './format-skill.js';
export { type ParseSkillOptions, parseSkill, readSkillText, type SkillTextReading } from './parse-skill.js';
export { type ReadSkillFolderOptions, readSkillFolder } from './read-skill-folder.js';
export { skillForFamily } from './skill-for-family.js';
export { codePointLength, normalizeSkillName, skillNamesMatch } from './skill-name.js';
export { findSkillReferences } from './skill-references.js';
export {
  assertValidSkill,
  CLIENT_SKILL_FIELDS,
  estimateTokens,
  FAMILIES_METADATA_KEY,
  formatSkillProblem,
  SKILL_BODY_WARN_LINES,
  SKILL_BODY_WARN_TOKENS,
  SKILL_COMPATIBILITY_MAX,
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  SKILL_SPEC_FIELDS,
  type SkillValidation,
  type ValidateSkillOptions,
  validateSkill,
} from './validate-skill.js';
export {
  findSkillFile,
  SKILL_FILE_NAMES,
  SKILL_FOLDERS,
  type SkillFolderValidation,
  type ValidateSkillFolderOptions,
  validateSkillFolder,
} from './validate-skill-folder.js';
