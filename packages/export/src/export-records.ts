import { resolve } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import { evolveRows } from './evolve-rows.js';
import { type ExportCounts, emptyCounts } from './export-counts.js';
import { EXPORT_FORMATS, type ExportFormat } from './export-format.js';
import { internalizeRows } from './internalize-rows.js';
import { readManifest } from './read-manifest.js';

/**
 * The rows of a run in one layout, read from the run directory one record at a time (nothing is written):
 * `ExportRow`s for `jsonl`, `TrlRow`s for `trl`, `VerlRow`s for `verl`. `counts` collects what was left
 * out; `exportRun` turns it into notes.
 */
export function* exportRecords(
  runDir: string,
  format: ExportFormat = 'jsonl',
  counts: ExportCounts = emptyCounts(),
): Generator<object> {
  if (!EXPORT_FORMATS.includes(format)) {
    throw new InvalidArgumentError(
      '--format',
      `expected one of ${EXPORT_FORMATS.join(', ')}, got "${format}"`,
    );
  }
  const dir = resolve(runDir);
  const manifest = readManifest(dir);
  yield* manifest.method === 'evolve'
    ? evolveRows(dir, format, counts)
    : internalizeRows(dir, format, counts);
}
