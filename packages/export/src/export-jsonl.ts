import { exportRecords } from './export-records.js';
import type { ExportRow } from './export-row.js';
import { type ExportResult, exportRun } from './export-run.js';

/**
 * The flat rows (`--format jsonl`) the trained component learned from, in memory: for `evolve`, each skill
 * candidate (the editor's prompt context and its SKILL.md) with its Skill-R1 advantage; for `internalize`,
 * each action of each training rollout (the observation it acted on) with its rollout's advantage. For a
 * large run, or for rows an LLM trainer can use, write them with `exportRun` (`trl`, `verl`).
 */
export function exportRows(runDir: string): ExportRow[] {
  return [...exportRecords(runDir, 'jsonl')] as ExportRow[];
}

/** Writes the flat rows as JSONL to `out` (default `<run>/export.jsonl`), streaming; returns the path and count. */
export async function exportJsonl(runDir: string, out?: string): Promise<ExportResult> {
  return exportRun(runDir, { format: 'jsonl', ...(out ? { out } : {}) });
}
