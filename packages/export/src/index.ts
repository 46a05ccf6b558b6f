/**
 * @skillrl/export — a skillrl run directory for use elsewhere: its skill bank as Agent Skills folders, and its
 * rollouts as training rows for another trainer: TRL conversational rows
 * (the messages exactly as sent, the reply, advantage, token ids), verl agent-loop rows (prompt and response
 * token ids, the response mask, log-probs, advantage), or the flat rows of earlier versions. Streams the run
 * one trajectory at a time and says, in notes, what it left out and why.
 */

// Writing a run's rows to a JSONL file, and what came of it (rows, sources, notes, rows not written).
export { type ExportOptions, type ExportResult, exportRun } from './export-run.js';
// The layouts, and the file each is written to by default.
export { DEFAULT_EXPORT_FILES, EXPORT_FORMATS, type ExportFormat } from './export-format.js';
// The rows of each layout.
export type { ExportRow } from './export-row.js';
export type { TrlRow } from './trl-rows.js';
export type { VerlRow } from './verl-rows.js';
// Reading the rows without writing a file: streamed, or the flat rows in memory.
export type { ExportCounts } from './export-counts.js';
export { exportRecords } from './export-records.js';
export { exportJsonl, exportRows } from './export-jsonl.js';
// A run's skill bank: every version it wrote with provenance and measured utility (`readRunSkillVersions`), as
// Agent Skills folders (`exportSkills`), and the diff of two versions; `skillrl skills export|diff` call them.
export { diffSkills, type SkillDiff } from './skills/diff-skills.js';
export {
  type BankRow,
  exportSkills,
  provenanceMetadata,
  type SkillExport,
  type SkillSelection,
  withProvenance,
} from './skills/export-skills.js';
export {
  candidateFile,
  contentHash,
  PROVENANCE_PREFIX,
  readRunSkillVersions,
  type SkillVersion,
  withoutProvenance,
} from './skills/run-skill-versions.js';
// A skill's measured utility is core's (the method loops compute it too); re-exported under its names.
export { pairedUtility, type SkillUtility, utilityMetadata } from '@skillrl/core';
