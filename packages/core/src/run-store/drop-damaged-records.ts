import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fsyncDir, writeFileAtomic } from './atomic-write.js';
import { checkRunStreams, type DamagedRecord, runStreamFiles } from './check-run-streams.js';
import { bufferLines } from './jsonl-lines.js';
import { segmentFileName } from './stream-segments.js';
import { guardWrite, makeDirectory } from './write-error.js';

/** Where damaged records go, under the run directory: `damaged/<stream>.jsonl`. */
export const DAMAGED_DIR = 'damaged';

/** The store's level for closed segments (see `GZIP_LEVEL` in open-run-store.ts): a rewrite keeps it. */
const SEGMENT_GZIP_LEVEL = 3;

/**
 * One line of `damaged/<stream>.jsonl`: a record taken out of a stream, exactly as it was, and where from.
 * `text` is the line without its newline; where its bytes were not valid UTF-8 (so `text` cannot give them
 * back), `base64` holds them exactly.
 */
export interface DamagedEntry extends DamagedRecord {
  droppedAt: string;
  text?: string;
  base64?: string;
  /** A whole file that could not be read: where it was moved, relative to the run directory. */
  movedTo?: string;
}

export interface DroppedRecords {
  /** What was taken out, as `checkRunStreams` found it (files named as they were). */
  records: DamagedRecord[];
  /** Each file changed: its name before and after (a segment's name carries its new record count). */
  files: { from: string; to: string }[];
  /** The files the records were kept in (`damaged/<stream>.jsonl`), relative to the run directory. */
  kept: string[];
}

function appendEntries(path: string, entries: readonly DamagedEntry[]): void {
  if (entries.length === 0) return;
  const text = entries.map((e) => `${JSON.stringify(e)}\n`).join('');
  guardWrite(path, 'write the file', () => {
    const fd = openSync(path, 'a');
    try {
      const buf = Buffer.from(text, 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
  fsyncDir(dirname(path));
}

/** A free name for a whole file moved under damaged/ (a second drop of a file of the same name keeps both). */
function freePath(path: string): string {
  if (!existsSync(path)) return path;
  for (let i = 1; ; i++) if (!existsSync(`${path}.${i}`)) return `${path}.${i}`;
}

/**
 * Moves every damaged record of a run directory's streams (`checkRunStreams`) out of them, losing nothing:
 * each is appended first, exactly as it was, to `damaged/<stream>.jsonl` with its file, line, reason and
 * time; then its file is rewritten without it, atomically (`writeFileAtomic`), every other byte as it was
 * (a torn last line included, which the store drops on opening as before). A closed segment keeps its
 * sequence number and its name's record count is made right (`<stream>.<seq>.n<records>.jsonl.gz`); a
 * segment that does not inflate is moved whole to `damaged/segments/`.
 *
 * Every step leaves a directory that a second call finishes: the records are kept before any stream
 * changes; a segment is renamed to its new count before it is rewritten, so a crash between the two leaves
 * one file (its damaged lines still in it, found and dropped again) and never two segments of one number.
 * A record kept twice in `damaged/` is the only trace of such a crash.
 */
export function dropDamagedRecords(dir: string, options: { now?: () => Date } = {}): DroppedRecords {
  const root = resolve(dir);
  const damaged = checkRunStreams(root);
  const result: DroppedRecords = { records: damaged, files: [], kept: [] };
  if (damaged.length === 0) return result;
  const droppedAt = (options.now?.() ?? new Date()).toISOString();
  const keptDir = join(root, DAMAGED_DIR);
  makeDirectory(keptDir);
  const files = new Map(runStreamFiles(root).map((f) => [relative(root, f.path), f]));
  const byFile = new Map<string, DamagedRecord[]>();
  for (const record of damaged) byFile.set(record.file, [...(byFile.get(record.file) ?? []), record]);
  const kept = new Set<string>();

  for (const [rel, records] of byFile) {
    const file = files.get(rel);
    if (!file) continue;
    const keptPath = join(keptDir, `${file.stream}.jsonl`);
    kept.add(relative(root, keptPath));
    const whole = records.find((r) => r.lineNo === 0);
    if (whole) {
      const target = freePath(join(keptDir, rel));
      makeDirectory(dirname(target));
      appendEntries(keptPath, [{ ...whole, droppedAt, movedTo: relative(root, target) }]);
      guardWrite(file.path, 'write the file', () => renameSync(file.path, target));
      fsyncDir(dirname(file.path));
      fsyncDir(dirname(target));
      result.files.push({ from: rel, to: relative(root, target) });
      continue;
    }
    const raw = readFileSync(file.path);
    const data = file.gzip ? gunzipSync(raw) : raw;
    const bad = new Map(records.map((r) => [r.lineNo, r]));
    const keep: Buffer[] = [];
    const entries: DamagedEntry[] = [];
    let recordsKept = 0;
    for (const line of bufferLines(data)) {
      if (line.kind === 'tail') {
        keep.push(data.subarray(line.start));
        continue;
      }
      const record = bad.get(line.lineNo);
      if (record) {
        const bytes = data.subarray(line.start, line.end - 1);
        const text = bytes.toString('utf8');
        const exact = Buffer.from(text, 'utf8').equals(bytes);
        entries.push({ ...record, droppedAt, text, ...(exact ? {} : { base64: bytes.toString('base64') }) });
        continue;
      }
      keep.push(data.subarray(line.start, line.end));
      if (line.text.trim().length > 0) recordsKept++;
    }
    appendEntries(keptPath, entries);
    let target = file.path;
    if (file.segment) {
      target = join(
        dirname(file.path),
        segmentFileName(file.stream, file.segment.seq, recordsKept, file.gzip),
      );
      if (target !== file.path) {
        guardWrite(file.path, 'write the file', () => renameSync(file.path, target));
        fsyncDir(dirname(target));
      }
    }
    const body = Buffer.concat(keep);
    guardWrite(target, 'write the file', () =>
      writeFileAtomic(target, file.gzip ? gzipSync(body, { level: SEGMENT_GZIP_LEVEL }) : body),
    );
    result.files.push({ from: rel, to: relative(root, target) });
  }
  result.kept = [...kept];
  return result;
}
