import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { readRunStreamEntries, type StreamReadNote } from '@skillrl/core';
import {
  type AdvantageRecord,
  type AdvantageRowKind,
  type CandidateAdvantageRow,
  checkAdvantageRecord,
  type TrajectoryAdvantageRow,
} from './check-advantage-record.js';
import type { ExportCounts } from './export-counts.js';

// A record is written `{"key":…,"unit":…,"rows":[…]}`: the key survives a tear anywhere after it.
const LEADING_KEY = /^\{"key":"((?:[^"\\]|\\.)*)"/;

function unitOf(text: string): string | undefined {
  const m = LEADING_KEY.exec(text);
  if (!m) return undefined;
  try {
    const key = JSON.parse(`"${m[1]}"`) as string;
    const slash = key.indexOf('/');
    return slash === -1 ? key : key.slice(0, slash);
  } catch {
    return undefined;
  }
}

/** The first bytes of the unfinished last line of `file` (the reader gives its length). */
function tailText(dir: string, file: string, bytes: number): string {
  const path = join(dir, file);
  if (!file.endsWith('.jsonl') || !existsSync(path)) return '';
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(bytes, 4096));
    const n = readSync(fd, buf, 0, buf.length, Math.max(0, size - bytes));
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

/** The unit a parsed record names (its `unit`, else its key's first part), when it names one. */
function unitOfRecord(value: unknown, line: string): string | undefined {
  const v = value as { unit?: unknown } | null;
  if (v !== null && typeof v === 'object' && typeof v.unit === 'string') return v.unit;
  return unitOf(line);
}

/**
 * The advantages stream, a record appended twice (a unit interrupted after writing it) counted once. A torn
 * or damaged record — not JSON, or JSON whose rows are not what the run writes (`checkAdvantageRecord`) — is
 * set aside in `counts.lostUpdates` with its file, line and unit, so that the rows it would have given are
 * counted and said (by the line that is wrong) rather than silently missing or blamed on the rollouts or
 * candidates it names.
 */
export function readAdvantages(
  dir: string,
  counts: ExportCounts,
  kind: 'trajectory',
): AdvantageRecord<TrajectoryAdvantageRow>[];
export function readAdvantages(
  dir: string,
  counts: ExportCounts,
  kind: 'candidate',
): AdvantageRecord<CandidateAdvantageRow>[];
export function readAdvantages(dir: string, counts: ExportCounts, kind: AdvantageRowKind): AdvantageRecord[] {
  const byKey = new Map<string, AdvantageRecord>();
  const onNote = (note: StreamReadNote) => {
    if (note.kind !== 'torn') {
      counts.read.push(note);
      return;
    }
    counts.lostUpdates.push({
      file: note.file,
      how: { kind: 'torn', bytes: note.bytes },
      unit: unitOf(tailText(dir, note.file, note.bytes)),
      rows: 0,
      sources: 0,
    });
  };
  for (const line of readRunStreamEntries(dir, 'advantages', { onNote })) {
    let value: unknown;
    let wrong: string | undefined;
    try {
      value = JSON.parse(line.text);
      wrong = checkAdvantageRecord(value, kind);
    } catch {
      wrong = 'is not valid JSON';
    }
    if (wrong !== undefined) {
      counts.lostUpdates.push({
        file: line.file,
        how: { kind: 'damaged', line: line.lineNo, reason: wrong },
        unit: unitOfRecord(value, line.text),
        rows: 0,
        sources: 0,
      });
      continue;
    }
    const r = value as AdvantageRecord;
    byKey.set(r.key, r);
  }
  // A unit whose record is complete elsewhere (written again by a resume) lost nothing: only the line is said.
  const units = new Set([...byKey.values()].map((r) => r.unit));
  counts.lostUpdates = counts.lostUpdates.filter((l) => {
    if (l.unit === undefined || !units.has(l.unit)) return true;
    counts.read.push(
      l.how.kind === 'torn'
        ? { kind: 'torn', file: l.file, bytes: l.how.bytes }
        : { kind: 'damaged', file: l.file, lineNo: l.how.line },
    );
    return false;
  });
  return [...byKey.values()];
}
