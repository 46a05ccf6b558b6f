import { existsSync, readFileSync } from 'node:fs';

export interface JsonlRead<T> {
  /** False when the file does not exist (yet). */
  exists: boolean;
  records: T[];
  /** What was skipped and why, phrased for a reader of the report. */
  notes: string[];
}

/**
 * Reads an append-only JSONL stream without touching it. Unlike opening a run store, which repairs a torn
 * last line by truncating the file, a report may be built while the run is still writing, so an unfinished
 * last line is only skipped, and a damaged line in the middle is skipped with a note instead of failing.
 */
export function readJsonl<T>(path: string, label: string): JsonlRead<T> {
  if (!existsSync(path)) return { exists: false, records: [], notes: [] };
  const text = readFileSync(path, 'utf8');
  const records: T[] = [];
  const notes: string[] = [];
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  const damaged: number[] = [];
  lines.forEach((line, i) => {
    if (line.trim().length === 0) return;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      damaged.push(i + 1);
    }
  });
  if (damaged.length > 0) {
    const shown = damaged.slice(0, 5).join(', ');
    const more = damaged.length > 5 ? ` and ${damaged.length - 5} more` : '';
    notes.push(`${label}: skipped ${damaged.length} line(s) that are not valid JSON (line ${shown}${more}).`);
  }
  if (tail.trim().length > 0) {
    notes.push(
      `${label}: the last line is unfinished (${Buffer.byteLength(tail)} bytes without a newline); the run is still writing or stopped mid-write, so that record is not shown.`,
    );
  }
  return { exists: true, records, notes };
}
