export { exportJsonl, exportRows } from './export-jsonl.js';
export {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
  type ExportRow,
  exportRecords,
  exportRun,
} from './export-run.js';
export type { TrlRow } from './trl-rows.js';
export type { VerlRow } from './verl-rows.js';
