import { existsSync } from 'node:fs';
import {
  plainFileLines,
  readLatestRecords,
  readRunStream,
  type StreamReadNote,
  streamFiles,
} from '@skillrl/core';

export interface JsonlRead<T> {
  /** False when the file does not exist (yet). */
  exists: boolean;
  records: T[];
  /** What was skipped and why, phrased for a reader of the report. */
  notes: string[];
}

function damagedNote(label: string, lines: number[]): string {
  const shown = lines.slice(0, 5).join(', ');
  const more = lines.length > 5 ? ` and ${lines.length - 5} more` : '';
  return `${label}: skipped ${lines.length} line(s) that are not valid JSON (line ${shown}${more}).`;
}

function tornNote(label: string, bytes: number): string {
  return `${label}: the last line is unfinished (${bytes} bytes without a newline); the run is still writing or stopped mid-write, so that record is not shown.`;
}

/**
 * Reads an append-only JSONL file without touching it, in 1 MiB chunks. Unlike opening a run store, which
 * repairs a torn last line by truncating the file, a report may be built while the run is still writing, so
 * an unfinished last line is only skipped, and a damaged line in the middle is skipped with a note instead
 * of failing.
 */
export function readJsonl<T>(path: string, label: string): JsonlRead<T> {
  if (!existsSync(path)) return { exists: false, records: [], notes: [] };
  const records: T[] = [];
  const notes: string[] = [];
  const damaged: number[] = [];
  for (const line of plainFileLines(path)) {
    if (line.kind === 'tail') {
      notes.push(tornNote(label, line.bytes));
      continue;
    }
    if (line.text.trim().length === 0) continue;
    try {
      records.push(JSON.parse(line.text) as T);
    } catch {
      damaged.push(line.lineNo);
    }
  }
  if (damaged.length > 0) notes.unshift(damagedNote(label, damaged));
  return { exists: true, records, notes };
}

/**
 * A run directory's stream, record by record, in bounded memory: its closed segments (plain or gzip) then
 * its open `<stream>.jsonl`, or the single file of an older run. Damaged and unfinished lines are skipped;
 * `notes` says so once the iteration is over, by file. With `latest`, a record that a later one replaces
 * (the same key: a rollout run again on resume) is left out, as core's `readLatestRecords` reads it; `keyOf`
 * names the key (default: a record's `id`).
 */
export function streamRecords<T>(
  dir: string,
  stream: string,
  latest?: { keyOf?: (record: T) => string | undefined },
): { exists: boolean; records: Iterable<T>; notes: () => string[] } {
  const exists = streamFiles(dir, stream).length > 0;
  const damaged = new Map<string, number[]>();
  const other: string[] = [];
  const onNote = (note: StreamReadNote) => {
    if (note.kind === 'damaged') damaged.set(note.file, [...(damaged.get(note.file) ?? []), note.lineNo]);
    else if (note.kind === 'torn') other.push(tornNote(note.file, note.bytes));
    else other.push(`${note.file}: could not be read (${note.reason}); its records are not shown.`);
  };
  return {
    exists,
    records: {
      [Symbol.iterator]: () =>
        latest
          ? readLatestRecords<T>(dir, stream, { onNote, ...(latest.keyOf ? { keyOf: latest.keyOf } : {}) })
          : readRunStream<T>(dir, stream, { onNote }),
    },
    notes: () => [...[...damaged].map(([file, lines]) => damagedNote(file, lines)), ...other],
  };
}
