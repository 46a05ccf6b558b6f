// The skill bank's reading, export and diff live in @skillrl/export; re-exported here under the names they had.
export {
  type BankRow,
  contentHash,
  diffSkills,
  exportSkills,
  PROVENANCE_PREFIX,
  pairedUtility,
  provenanceMetadata,
  readRunSkillVersions,
  type SkillDiff,
  type SkillExport,
  type SkillSelection,
  type SkillUtility,
  type SkillVersion,
  utilityMetadata,
  withoutProvenance,
  withProvenance,
} from '@skillrl/export';
