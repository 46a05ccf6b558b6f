import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { readRunStreamLines, type StreamReadNote } from '@skillrl/core';
import type { ExportCounts } from './export-counts.js';

/**
 * One record of `advantages.jsonl` as a run writes it after each update (`{ key, unit, rows }`): per unit,
 * what the trained component was given — per trajectory (internalize) or per task and candidate (evolve).
 */
export interface AdvantageRecord {
  key: string;
  unit: string;
  rows: { taskId?: string; candidate?: number; trajectoryId?: string; advantage: number; reward?: number }[];
}

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

/**
 * The advantages stream, a record appended twice (a unit interrupted after writing it) counted once. A torn
 * or damaged record is set aside in `counts.lostUpdates` with its unit, so that the rows it would have
 * given are counted and said rather than silently missing.
 */
export function readAdvantages(dir: string, counts: ExportCounts): AdvantageRecord[] {
  const byKey = new Map<string, AdvantageRecord>();
  let record = 0;
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
  for (const line of readRunStreamLines(dir, 'advantages', { onNote })) {
    record++;
    let r: AdvantageRecord;
    try {
      r = JSON.parse(line) as AdvantageRecord;
    } catch {
      counts.lostUpdates.push({
        file: 'advantages',
        how: { kind: 'damaged', record },
        unit: unitOf(line),
        rows: 0,
        sources: 0,
      });
      continue;
    }
    byKey.set(r.key, r);
  }
  // A unit whose record is complete elsewhere (written again by a resume) lost nothing: only the line is said.
  const units = new Set([...byKey.values()].map((r) => r.unit));
  counts.lostUpdates = counts.lostUpdates.filter((l) => {
    if (l.unit === undefined || !units.has(l.unit)) return true;
    counts.read.push(
      l.how.kind === 'torn'
        ? { kind: 'torn', file: l.file, bytes: l.how.bytes }
        : { kind: 'damaged', file: l.file, lineNo: l.how.record },
    );
    return false;
  });
  return [...byKey.values()];
}
