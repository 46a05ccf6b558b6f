import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { emptyCounts } from './export-counts.js';
import { DEFAULT_EXPORT_FILES, type ExportFormat } from './export-format.js';
import { exportNotes } from './export-notes.js';
import { exportRecords } from './export-records.js';
import { outputError } from './output-error.js';
import { readManifest } from './read-manifest.js';

export interface ExportOptions {
  format?: ExportFormat;
  /** Output file; default `<run-dir>/export.jsonl` (`export-trl.jsonl`, `export-verl.jsonl`). */
  out?: string;
}

export interface ExportResult {
  path: string;
  format: ExportFormat;
  rows: number;
  /** Trained trajectories (internalize) or candidates (evolve) that gave at least one row. */
  sources: number;
  /** What was left out, and why, in words (also printed by the CLI). */
  notes: string[];
  /**
   * Rows the run should have given but that could not be written: those of an update whose advantages
   * line is torn or damaged (counted from its rollouts or candidates), and of trained trajectories or
   * candidates whose own line is missing (counted where their steps are known; see `notes`). 0 when none.
   */
  rowsNotWritten: number;
  /**
   * Trained trajectories left out because they ended in an error (their latest record's `trajectory.error`):
   * an errored rollout measured nothing, so it is never exported. Said in `notes` too. 0 when none.
   */
  erroredLeftOut: number;
}

/**
 * Writes a run's training rows as JSONL, streaming: one trajectory (or candidate) in memory at a time, the
 * output written in chunks to a temporary file renamed into place at the end, so a failed export leaves no
 * half file. `jsonl`: the flat `ExportRow`s; `trl`: one conversational row per turn (`TrlRow`); `verl`: one
 * agent-loop row per trajectory, or per turn where the turns do not chain (`VerlRow`).
 */
export function exportRun(runDir: string, options: ExportOptions = {}): ExportResult {
  const format = options.format ?? 'jsonl';
  const dir = resolve(runDir);
  const manifest = readManifest(dir);
  const path = resolve(options.out ?? join(dir, DEFAULT_EXPORT_FILES[format] ?? 'export.jsonl'));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const counts = emptyCounts();
  let rows = 0;
  let fd: number;
  try {
    fd = openSync(temp, 'w');
  } catch (error) {
    throw outputError(path, error);
  }
  try {
    let chunk = '';
    for (const row of exportRecords(dir, format, counts)) {
      chunk += `${JSON.stringify(row)}\n`;
      rows++;
      if (chunk.length >= 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk) writeSync(fd, chunk);
    closeSync(fd);
    const notes = exportNotes(format, manifest.method, counts, rows, dir);
    renameSync(temp, path);
    const rowsNotWritten = counts.lostUpdates.reduce((n, l) => n + l.rows, 0);
    return {
      path,
      format,
      rows,
      sources: counts.sources,
      notes,
      rowsNotWritten,
      erroredLeftOut: counts.errored,
    };
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw outputError(path, error);
  }
}
