import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { STREAM_NAME } from './check-stream-name.js';
import { gzipFileLines, type JsonlLine, type JsonlTail, plainFileLines } from './jsonl-lines.js';
import { recordProblem } from './stream-record-checks.js';
import { listSegments } from './stream-segments.js';

/** One record of a run directory's streams that its readers cannot use, and where it is. */
export interface DamagedRecord {
  stream: string;
  /**
   * The file, relative to the run directory: `rollouts.jsonl` (the open file) or
   * `segments/rollouts.000002.n512.jsonl.gz` (a closed segment).
   */
  file: string;
  /**
   * 1-based line in that file (of the inflated text, for a gzip segment); 0 when the whole file cannot be
   * read (a segment that does not inflate).
   */
  lineNo: number;
  /** What is wrong with it, in words: `not valid JSON (…)`, `not a valid trajectory: $.steps: is required but missing`. */
  reason: string;
}

/** One file holding part of a stream, in the order the stream is read. */
export interface RunStreamFile {
  stream: string;
  path: string;
  gzip: boolean;
  /** Closed segments only: the sequence number and record count their name carries. */
  segment?: { seq: number; records: number };
}

/**
 * Every file of every stream, in reading order (a stream's closed segments by sequence number, then its
 * open `<stream>.jsonl`), found as `openRunStore` finds them.
 */
export function runStreamFiles(root: string): RunStreamFile[] {
  const byStream = new Map<string, RunStreamFile[]>();
  const add = (file: RunStreamFile) =>
    byStream.set(file.stream, [...(byStream.get(file.stream) ?? []), file]);
  for (const s of listSegments(root).segments) {
    add({ stream: s.stream, path: s.path, gzip: s.gzip, segment: { seq: s.seq, records: s.records } });
  }
  for (const entry of readdirSync(root)) {
    if (!entry.endsWith('.jsonl')) continue;
    const stream = entry.slice(0, -'.jsonl'.length);
    const path = join(root, entry);
    if (STREAM_NAME.test(stream) && statSync(path).isFile()) add({ stream, path, gzip: false });
  }
  return [...byStream.keys()].sort().flatMap((stream) => byStream.get(stream) as RunStreamFile[]);
}

/** Why a line is not a record of `stream`, or `undefined` when it is one. */
function lineProblem(stream: string, text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  return recordProblem(stream, value);
}

/**
 * Every damaged record of a run directory's streams, read without writing anything: a complete line that is
 * not JSON, or JSON that is not a record of its stream (rollouts: core's `trajectory` schema; events: the
 * `event` schema; advantages, units, candidates, rejections, overrides: the fields their readers use; any
 * other stream: JSON only), and a closed segment that does not inflate. A torn last line (no newline: a
 * write a crash cut short, or one still under way) is not damage: `openRunStore` drops it with a warning.
 * Blank lines are skipped, as every reader skips them. Files are scanned one line at a time (a gzip segment
 * inflated whole, as every reader does), so a run of any length is checked in bounded memory.
 *
 * A resume checks this before anything runs: one record that its readers cannot use would otherwise fail
 * the run after it has redone its work, far from the line at fault. `dropDamagedRecords` moves them out.
 */
export function checkRunStreams(dir: string): DamagedRecord[] {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidArgumentError('run directory', 'expected a directory path');
  }
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new InvalidArgumentError('run directory', `${root} is not a directory`);
  }
  const damaged: DamagedRecord[] = [];
  for (const file of runStreamFiles(root)) {
    const rel = relative(root, file.path);
    let lines: Iterable<JsonlLine | JsonlTail>;
    if (file.gzip) {
      try {
        lines = gzipFileLines(file.path);
      } catch (error) {
        // It does not inflate: none of its records can be read. (A plain file that cannot be read is an
        // I/O failure, not damage, and is thrown as one.)
        damaged.push({
          stream: file.stream,
          file: rel,
          lineNo: 0,
          reason: `the segment cannot be inflated (${(error as Error).message})`,
        });
        continue;
      }
    } else lines = plainFileLines(file.path);
    for (const line of lines) {
      if (line.kind === 'tail' || line.text.trim().length === 0) continue;
      const reason = lineProblem(file.stream, line.text);
      if (reason !== undefined) damaged.push({ stream: file.stream, file: rel, lineNo: line.lineNo, reason });
    }
  }
  return damaged;
}

/** `segments/rollouts.000002.n3.jsonl.gz:2: not valid JSON (…)`, or `file: reason` for a whole file. */
export function formatDamagedRecord(record: DamagedRecord): string {
  return `${record.file}${record.lineNo > 0 ? `:${record.lineNo}` : ''}: ${record.reason}`;
}
