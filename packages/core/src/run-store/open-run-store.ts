import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { JsonValue } from '../contracts/json.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { RunStoreError } from '../errors/run-store-error.js';
import { fsyncDir, TEMP_PREFIX, writeFileAtomic } from './atomic-write.js';
import { checkStreamName, STREAM_NAME } from './check-stream-name.js';
import { gzipFileLines, plainFileLines } from './jsonl-lines.js';
import {
  listSegments,
  SEGMENT_DIR,
  type SegmentFile,
  segmentFileName,
  streamFiles,
} from './stream-segments.js';
import { guardWrite, makeDirectory, writeError } from './write-error.js';

/**
 * A closed segment larger than this (an open file grown by an older version that never rotated) is kept
 * plain rather than compressed: compressing reads it whole, and readers inflate a gzip segment whole.
 */
const MAX_COMPRESSED_SEGMENT = 64 * 1024 * 1024;
/**
 * zlib level of closed segments. Level 3 (deflate's fast strategy) compressed a household rollouts segment
 * at 180 MB/s to 1/11.6 of its size, level 6 at 76 MB/s to 1/15.6: a 360-step SKILLC run writes about
 * 1.2 GB of rollouts, so level 6 cost it about 9 s more for about 25 MB less on disk.
 */
const GZIP_LEVEL = 3;
const SNAPSHOT_FILE = /^snapshot-(\d{8})\.json$/;
export const CHECKPOINT_DIR = 'checkpoints';

export interface RunStoreOptions {
  /**
   * `'os'` (default): each record is handed to the kernel with one write; it survives the process being
   * killed at any moment. `'fsync'`: also fsync after every append, to survive power loss (much slower).
   */
  durability?: 'os' | 'fsync';
  /** Receives recovery warnings (a torn last line dropped, a temp file removed). Defaults to `console.warn`. */
  onWarning?: (message: string) => void;
  /**
   * Rotate a stream's open file once it holds at least this many bytes: it becomes a closed segment under
   * `segments/` (`<stream>.<seq>.n<records>.jsonl.gz`) and a new, empty `<stream>.jsonl` is opened. The open
   * file stays plain, so the crash guarantees are those of a single file. Default: never rotate.
   */
  segmentBytes?: number;
  /** How closed segments are kept: `'gzip'` (default) or `'none'` (plain `.jsonl`). */
  compression?: 'gzip' | 'none';
  /**
   * On `close()`, turn each stream's open file that holds records into a closed segment too (compressed
   * under `'gzip'`), so that a run smaller than one segment is stored compressed as well; reopening starts a
   * new open file. Default `false`: the open files stay plain `<stream>.jsonl`, which some readers of older
   * run directories open by name. Every reader of this package reads both layouts.
   */
  segmentOnClose?: boolean;
  /**
   * With `segmentOnClose`, only open files holding at least this many bytes are closed into segments; smaller
   * ones stay plain `<stream>.jsonl` (readable with any tool, and too small to be worth compressing).
   * Default 0: every open file that holds records.
   */
  segmentOnCloseBytes?: number;
}

export interface Snapshot<T = JsonValue> {
  seq: number;
  name: string;
  time: string;
  /** Records in each stream when the snapshot was written: resume replays from here. */
  streams: Record<string, number>;
  value: T;
  path: string;
}

export interface RecoveryReport {
  /** Complete records found per stream when the store was opened. */
  records: Record<string, number>;
  /** Streams whose torn last line was dropped, with the bytes removed. */
  torn: { stream: string; bytes: number }[];
  /** Temp files of interrupted snapshot writes that were removed. */
  removedTempFiles: string[];
  warnings: string[];
}

export interface RunStore {
  readonly dir: string;
  /** What opening the store found and repaired. */
  readonly recovery: RecoveryReport;
  /** Appends one JSON record as one line. */
  append(stream: string, record: JsonValue | object): void;
  appendMany(stream: string, records: readonly (JsonValue | object)[]): void;
  /** Every complete record of a stream, in order, across its segments and its open file. */
  read<T = JsonValue>(stream: string): T[];
  /**
   * The records of a stream one at a time, in order, in bounded memory (one segment or one 1 MiB chunk at
   * a time): what a reader of a long run uses instead of `read`.
   */
  iterate<T = JsonValue>(stream: string): Generator<T>;
  /** The raw JSONL lines of a stream, in order (for readers that parse only the records they need). */
  lines(stream: string): Generator<string>;
  /** Records in a stream (counted, not re-read). */
  count(stream: string): number;
  streams(): string[];
  /** Writes `checkpoints/snapshot-<seq>.json` atomically and returns it. */
  writeSnapshot<T>(name: string, value: T): Snapshot<T>;
  /** The newest complete snapshot, if any. */
  latestSnapshot<T = JsonValue>(): Snapshot<T> | undefined;
  /**
   * Removes all but the newest `keep` readable snapshots (keep >= 1). Returns the snapshots kept (newest
   * first) and the files removed, relative to the run directory.
   */
  pruneSnapshots<T = JsonValue>(keep: number): { kept: Snapshot<T>[]; removed: string[] };
  /** Atomically writes a file under the run directory (config.json, skills/…/SKILL.md, report.html). */
  writeFile(relativePath: string, data: string | Uint8Array): string;
  readFile(relativePath: string): string | undefined;
  /** fsyncs every open stream. */
  flush(): void;
  /** fsyncs and closes every open stream; with `segmentOnClose`, then closes their open files into segments. */
  close(): void;
}

interface StreamState {
  /** -1 while no file is open (a rotation failed before its new open file was opened). */
  fd: number;
  /** Records in the stream: closed segments and the open file. */
  count: number;
  /** Records and bytes in the open file. */
  openCount: number;
  bytes: number;
}

/**
 * Scans a JSONL file: counts complete records, truncates a torn last line (a write interrupted by a crash)
 * and refuses a corrupt line in the middle, which no crash can produce.
 */
function recoverStream(
  path: string,
  stream: string,
  report: RecoveryReport,
  warn: (m: string) => void,
): number {
  let count = 0;
  let torn: { start: number; bytes: number } | undefined;
  let bad: { lineNo: number; cause: unknown } | undefined;
  // Scanned in chunks: a stream of any length is checked in constant memory.
  for (const line of plainFileLines(path)) {
    if (line.kind === 'line' && line.text.trim().length === 0) continue;
    if (bad) {
      throw new RunStoreError(
        path,
        `line ${bad.lineNo} is not valid JSON but is followed by more records; the file was edited or damaged, not torn by a crash. Repair or remove that line.`,
        { cause: bad.cause },
      );
    }
    if (line.kind === 'tail') {
      torn = line;
      break;
    }
    try {
      JSON.parse(line.text);
    } catch (cause) {
      bad = { lineNo: line.lineNo, cause };
      continue;
    }
    count++;
  }
  if (bad) {
    // A crash leaves a last line without its newline (dropped below); one that ends with a newline was
    // written whole, so something else changed it.
    throw new RunStoreError(
      path,
      `line ${bad.lineNo}, the last, is not valid JSON yet ends with a newline, so no crash tore it: the file was edited or damaged. Repair or remove that line.`,
      { cause: bad.cause },
    );
  }
  if (torn) {
    // No newline: the final write was cut short. Everything before it is intact.
    guardWrite(path, 'drop a torn last line', () => {
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, torn.start);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    });
    report.torn.push({ stream, bytes: torn.bytes });
    const message = `${stream}.jsonl: dropped a torn last line (${torn.bytes} bytes after record ${count}); every complete record was kept`;
    report.warnings.push(message);
    warn(message);
  }
  return count;
}

/**
 * Opens (creating if needed) a run directory of append-only JSONL streams and atomic snapshots.
 * Reopening after a crash keeps every complete record, drops a torn last line with a warning, and
 * `latestSnapshot()` returns the last snapshot that was fully written.
 */
export function openRunStore(dir: string, options: RunStoreOptions = {}): RunStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidArgumentError('run directory', 'expected a directory path');
  }
  const segmentBytes = options.segmentBytes;
  if (segmentBytes !== undefined && !(Number.isInteger(segmentBytes) && segmentBytes >= 1)) {
    throw new InvalidArgumentError('segmentBytes', `expected an integer >= 1, got ${String(segmentBytes)}`);
  }
  const compression = options.compression ?? 'gzip';
  if (compression !== 'gzip' && compression !== 'none') {
    throw new InvalidArgumentError('compression', `expected "gzip" or "none", got ${String(compression)}`);
  }
  const root = resolve(dir);
  const segmentDir = join(root, SEGMENT_DIR);
  const warn = options.onWarning ?? ((m: string) => console.warn(`[skillrl] ${m}`));
  const durability = options.durability ?? 'os';
  makeDirectory(join(root, CHECKPOINT_DIR));

  const report: RecoveryReport = { records: {}, torn: [], removedTempFiles: [], warnings: [] };
  const open = new Map<string, StreamState>();
  /** Records per stream (segments and open file), and in the open file alone, as found on opening. */
  const counts = new Map<string, number>();
  const openCounts = new Map<string, number>();
  const nextSegment = new Map<string, number>();
  let closed = false;

  const note = (message: string) => {
    report.warnings.push(message);
    warn(message);
  };

  const removeTemps = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith(TEMP_PREFIX)) {
        guardWrite(join(folder, entry), 'remove a temp file', () =>
          rmSync(join(folder, entry), { force: true }),
        );
        const rel = relative(root, join(folder, entry));
        report.removedTempFiles.push(rel);
        note(`removed ${rel}, left by a write that was interrupted`);
      }
    }
  };
  removeTemps(root);
  removeTemps(join(root, CHECKPOINT_DIR));
  removeTemps(segmentDir);
  // Files written with `writeFile` into folders of their own (skills/<g>/<task>/<name>/SKILL.md): a write a
  // kill interrupted leaves its temp file there, where a skills client would find it.
  const removeTempsBelow = (folder: string) => {
    if (!existsSync(folder)) return;
    removeTemps(folder);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) removeTempsBelow(join(folder, entry.name));
    }
  };
  removeTempsBelow(join(root, 'skills'));

  /** Writes the .gz twin of a plain segment atomically, then removes the plain file (see `rotate`). */
  function compressSegment(segment: Pick<SegmentFile, 'stream' | 'seq' | 'records' | 'path'>): void {
    const gz = join(segmentDir, segmentFileName(segment.stream, segment.seq, segment.records, true));
    guardWrite(
      gz,
      'compress a closed segment',
      () => {
        writeFileAtomic(gz, gzipSync(readFileSync(segment.path), { level: GZIP_LEVEL }));
        rmSync(segment.path);
        fsyncDir(segmentDir);
      },
      root,
    );
  }

  // Closed segments: counted from their names. A plain copy beside its complete .gz twin is what a crash
  // between compressing and removing leaves; the twin holds the same records.
  const listing = listSegments(root);
  for (const path of listing.redundant) {
    guardWrite(path, 'remove a temp file', () => rmSync(path, { force: true }));
    note(`removed ${relative(root, path)}: its compressed copy is complete`);
  }
  for (const segment of listing.segments) {
    counts.set(segment.stream, (counts.get(segment.stream) ?? 0) + segment.records);
    nextSegment.set(segment.stream, Math.max(nextSegment.get(segment.stream) ?? 1, segment.seq + 1));
  }
  // A plain closed segment under 'gzip' is what a kill between the rotation's rename and its compression
  // leaves: it is compressed now, as the rotation would have done. Best effort: a directory that cannot be
  // written (a finished run read from a read-only copy) keeps it plain, and every reader reads it as it is.
  if (compression === 'gzip') {
    for (const segment of listing.segments) {
      if (segment.gzip || statSync(segment.path).size > MAX_COMPRESSED_SEGMENT) continue;
      try {
        compressSegment(segment);
        note(
          `compressed ${relative(root, segment.path)}: a closed segment left plain (a rotation interrupted before compressing it, or one written with compression "none")`,
        );
      } catch (error) {
        note(`${relative(root, segment.path)} stays plain: ${(error as Error).message}`);
      }
    }
  }
  for (const entry of readdirSync(root)) {
    if (entry.endsWith('.jsonl')) {
      const stream = entry.slice(0, -'.jsonl'.length);
      if (!STREAM_NAME.test(stream)) continue;
      const n = recoverStream(join(root, entry), stream, report, warn);
      openCounts.set(stream, n);
      counts.set(stream, (counts.get(stream) ?? 0) + n);
    }
  }
  for (const [stream, n] of counts) report.records[stream] = n;

  let nextSeq = 0;
  for (const entry of readdirSync(join(root, CHECKPOINT_DIR))) {
    const m = SNAPSHOT_FILE.exec(entry);
    if (m) nextSeq = Math.max(nextSeq, Number(m[1]) + 1);
  }

  const ensureOpen = () => {
    if (closed) throw new RunStoreError(root, 'the store is closed');
  };

  const openPath = (stream: string) => join(root, `${stream}.jsonl`);

  const streamState = (stream: string): StreamState => {
    checkStreamName(stream);
    let state = open.get(stream);
    if (!state) {
      const fd = guardWrite(openPath(stream), 'append a record', () => openSync(openPath(stream), 'a'), root);
      state = {
        fd,
        count: counts.get(stream) ?? 0,
        openCount: openCounts.get(stream) ?? 0,
        bytes: fstatSync(fd).size,
      };
      open.set(stream, state);
    } else if (state.fd === -1) reopen(stream, state);
    return state;
  };

  /**
   * Opens the stream's open file again after a rotation: a new, empty one if the old one was renamed into a
   * segment, the same one with its records if the rename did not happen.
   */
  const reopen = (stream: string, state: StreamState) => {
    const fd = guardWrite(openPath(stream), 'append a record', () => openSync(openPath(stream), 'a'), root);
    state.fd = fd;
    const size = fstatSync(fd).size;
    if (size !== state.bytes) {
      state.openCount = 0;
      state.bytes = size;
    }
  };

  /** Closes the open file as the next segment (`closeIntoSegment`) and opens a new, empty one. */
  const rotate = (stream: string, state: StreamState) => {
    guardWrite(openPath(stream), 'rotate the stream into a segment', () => fsyncSync(state.fd), root);
    closeSync(state.fd);
    // Never left holding a closed descriptor (its number could be reused by another file): a rotation that
    // fails (a full disk while compressing) still leaves the stream an open file, and the error is thrown.
    state.fd = -1;
    try {
      closeIntoSegment(stream, state.openCount);
    } finally {
      reopen(stream, state);
    }
  };

  /**
   * Moves the (closed) open file of a stream, holding `records`, to the next segment. Each step leaves a state
   * that reopening reads correctly: the rename is atomic (the records are in the open file or in the plain
   * segment); the .gz is written atomically beside the plain segment (a crash leaves both, and reopening
   * removes the plain copy), then the plain segment is removed; a crash before the .gz leaves the plain
   * segment alone, and reopening compresses it.
   */
  const closeIntoSegment = (stream: string, records: number) => {
    const seq = nextSegment.get(stream) ?? 1;
    nextSegment.set(stream, seq + 1);
    makeDirectory(segmentDir, root);
    const plain = join(segmentDir, segmentFileName(stream, seq, records, false));
    guardWrite(plain, 'rotate the stream into a segment', () => renameSync(openPath(stream), plain), root);
    fsyncDir(segmentDir);
    fsyncDir(root);
    if (compression === 'gzip' && statSync(plain).size <= MAX_COMPRESSED_SEGMENT) {
      compressSegment({ stream, seq, records, path: plain });
    }
  };

  const serialise = (stream: string, record: unknown): string => {
    let line: string | undefined;
    try {
      line = JSON.stringify(record);
    } catch (cause) {
      throw new InvalidArgumentError(
        `${stream} record`,
        'it cannot be serialised to JSON (a cycle or a BigInt?)',
        {
          cause,
        },
      );
    }
    if (line === undefined) throw new InvalidArgumentError(`${stream} record`, 'undefined cannot be stored');
    return `${line}\n`;
  };

  const writeAll = (stream: string, state: StreamState, text: string): number => {
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(state.fd, buf, off, buf.length - off);
      if (durability === 'fsync') fsyncSync(state.fd);
    } catch (error) {
      // A write refused part-way (a full disk) leaves part of a record: cut back to the last complete one,
      // so the stream stays whole for a resume, and the caller learns that these records were not stored.
      if (off > 0) {
        try {
          ftruncateSync(state.fd, state.bytes);
        } catch {
          // Reopening drops the torn line instead.
        }
      }
      throw writeError(openPath(stream), 'append a record', error, root);
    }
    return buf.length;
  };

  const appendText = (stream: string, text: string, records: number) => {
    const state = streamState(stream);
    state.bytes += writeAll(stream, state, text);
    state.count += records;
    state.openCount += records;
    // Rotation happens between records only, so a segment never holds part of one.
    if (segmentBytes !== undefined && state.bytes >= segmentBytes) rotate(stream, state);
  };

  const resolveInside = (relativePath: string): string => {
    const target = resolve(root, relativePath);
    if (target !== root && !target.startsWith(root + sep)) {
      throw new InvalidArgumentError('path', `"${relativePath}" points outside the run directory`);
    }
    return target;
  };

  const readSnapshotFile = <T>(file: string): Snapshot<T> | undefined => {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Omit<Snapshot<T>, 'path'>;
      return { ...parsed, path: file };
    } catch {
      return undefined;
    }
  };

  const snapshotFiles = () =>
    readdirSync(join(root, CHECKPOINT_DIR))
      .filter((f) => SNAPSHOT_FILE.test(f))
      .sort()
      .reverse();

  /** Tails already reported, by file and offset: a stream read many times warns once. */
  const tailsNoted = new Set<string>();

  function* lines(stream: string): Generator<{ text: string; file: string; lineNo: number }> {
    checkStreamName(stream);
    for (const file of streamFiles(root, stream)) {
      const source = file.gzip ? gzipFileLines(file.path) : plainFileLines(file.path);
      for (const line of source) {
        // A tail without a newline is a record another process is still writing, or one a crash tore after
        // this store was opened: not a record, and said, so that a reader never gets fewer records silently.
        if (line.kind === 'tail') {
          const key = `${file.path}\u0000${line.start}\u0000${line.bytes}`;
          if (!tailsNoted.has(key)) {
            tailsNoted.add(key);
            warn(
              `${relative(root, file.path)}: left out an unfinished last line (${line.bytes} bytes): another process is still writing it, or it was torn after this store was opened`,
            );
          }
          continue;
        }
        if (line.text.trim().length > 0) yield { text: line.text, file: file.path, lineNo: line.lineNo };
      }
    }
  }

  function* iterate<T>(stream: string): Generator<T> {
    for (const line of lines(stream)) {
      try {
        yield JSON.parse(line.text) as T;
      } catch (cause) {
        if (!(cause instanceof SyntaxError)) throw cause;
        throw new RunStoreError(line.file, `line ${line.lineNo} is not valid JSON`, { cause });
      }
    }
  }

  return {
    dir: root,
    recovery: report,
    append(stream, record) {
      ensureOpen();
      appendText(stream, serialise(stream, record), 1);
    },
    appendMany(stream, records) {
      ensureOpen();
      if (records.length === 0) return;
      appendText(stream, records.map((r) => serialise(stream, r)).join(''), records.length);
    },
    read<T>(stream: string): T[] {
      return Array.from(iterate<T>(stream));
    },
    iterate,
    *lines(stream: string): Generator<string> {
      for (const line of lines(stream)) yield line.text;
    },
    count(stream) {
      checkStreamName(stream);
      return open.get(stream)?.count ?? counts.get(stream) ?? 0;
    },
    streams() {
      const names = new Set([...counts.keys(), ...open.keys()]);
      return [...names].sort();
    },
    writeSnapshot<T>(name: string, value: T): Snapshot<T> {
      ensureOpen();
      const seq = nextSeq++;
      const streams: Record<string, number> = {};
      for (const s of this.streams()) streams[s] = this.count(s);
      const body = { seq, name, time: new Date().toISOString(), streams, value };
      const path = join(root, CHECKPOINT_DIR, `snapshot-${String(seq).padStart(8, '0')}.json`);
      // Streams first, so a snapshot never refers to records that are not durable yet.
      this.flush();
      guardWrite(path, 'write the file', () => writeFileAtomic(path, `${JSON.stringify(body)}\n`), root);
      return { ...body, path };
    },
    latestSnapshot<T>(): Snapshot<T> | undefined {
      for (const file of snapshotFiles()) {
        const snap = readSnapshotFile<T>(join(root, CHECKPOINT_DIR, file));
        if (snap) return snap;
        note(`${CHECKPOINT_DIR}/${file} is unreadable; falling back to an earlier snapshot`);
      }
      return undefined;
    },
    pruneSnapshots<T>(keep: number) {
      ensureOpen();
      if (!(Number.isInteger(keep) && keep >= 1)) {
        throw new InvalidArgumentError('keep', `expected an integer >= 1 snapshots to keep, got ${keep}`);
      }
      const kept: Snapshot<T>[] = [];
      const removed: string[] = [];
      for (const file of snapshotFiles()) {
        const path = join(root, CHECKPOINT_DIR, file);
        if (kept.length < keep) {
          // An unreadable snapshot newer than the kept ones is left alone (latestSnapshot skips it).
          const snap = readSnapshotFile<T>(path);
          if (snap) kept.push(snap);
          continue;
        }
        rmSync(path, { force: true });
        removed.push(relative(root, path));
      }
      if (removed.length > 0) fsyncDir(join(root, CHECKPOINT_DIR));
      return { kept, removed };
    },
    writeFile(relativePath, data) {
      ensureOpen();
      const target = resolveInside(relativePath);
      makeDirectory(dirname(target), root);
      guardWrite(target, 'write the file', () => writeFileAtomic(target, data), root);
      return target;
    },
    readFile(relativePath) {
      const target = resolveInside(relativePath);
      return existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    },
    flush() {
      for (const [stream, state] of open) {
        if (state.fd === -1) continue;
        guardWrite(openPath(stream), 'append a record', () => fsyncSync(state.fd), root);
      }
    },
    close() {
      if (closed) return;
      const held = new Map<string, number>(openCounts);
      const heldBytes = new Map<string, number>();
      for (const [stream, state] of open) {
        held.set(stream, state.openCount);
        heldBytes.set(stream, state.bytes);
        if (state.fd === -1) continue;
        try {
          guardWrite(openPath(stream), 'append a record', () => fsyncSync(state.fd), root);
        } finally {
          closeSync(state.fd);
        }
      }
      open.clear();
      closed = true;
      if (options.segmentOnClose) {
        // Best effort, and after every file is closed: a close in the `finally` of a failed run (a full disk)
        // must not hide that failure. A file left open or a segment left plain is read as it is, and the
        // next open compresses the plain segment.
        const minBytes = options.segmentOnCloseBytes ?? 0;
        for (const [stream, records] of held) {
          if (records === 0 || !existsSync(openPath(stream))) continue;
          // A stream not written in this process (held from disk) is measured on disk.
          const bytes = heldBytes.get(stream) ?? statSync(openPath(stream)).size;
          if (bytes < minBytes) continue;
          try {
            closeIntoSegment(stream, records);
          } catch (error) {
            note(`${stream}.jsonl stays as it is: ${(error as Error).message}`);
          }
        }
      }
    },
  };
}
