/**
 * @skillrl/export — a skillrl run directory as training rows for another trainer: TRL conversational rows
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
