export { diffSkills, type SkillDiff } from './diff-skills.js';
export {
  type BankRow,
  exportSkills,
  provenanceMetadata,
  type SkillExport,
  type SkillSelection,
  withProvenance,
} from './export-skills.js';
export {
  contentHash,
  PROVENANCE_PREFIX,
  readRunSkillVersions,
  type SkillVersion,
  withoutProvenance,
} from './run-skill-versions.js';
export { pairedUtility, type SkillUtility, utilityMetadata } from './skill-utility.js';
export { type SkillTest, type SkillTestResult, testSkills } from './test-skills.js';
