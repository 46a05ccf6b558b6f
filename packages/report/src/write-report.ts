import { join } from 'node:path';
import { writeFileAtomic } from '@skillrl/core';
import { buildReport } from './build-report.js';
import type { BuildReportOptions, ReportResult } from './report-types.js';

export interface WrittenReport extends ReportResult {
  /** Absolute path of the report written. */
  path: string;
}

/**
 * Builds the report and writes `<runDir>/report.html` atomically (a reader sees the old page or the new,
 * never half of one). It uses the run store's atomic write directly rather than opening the store, because
 * opening repairs the JSONL streams, and a report must not touch a run that may still be writing them.
 */
export function writeReport(runDir: string, options: BuildReportOptions = {}): WrittenReport {
  const result = buildReport(runDir, options);
  const path = join(result.summary.dir, 'report.html');
  writeFileAtomic(path, result.html);
  return { ...result, path };
}
