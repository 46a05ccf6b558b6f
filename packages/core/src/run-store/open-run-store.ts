import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { JsonValue } from '../contracts/json.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { RunStoreError } from '../errors/run-store-error.js';
import { TEMP_PREFIX, writeFileAtomic } from './atomic-write.js';

const STREAM_NAME = /^[a-z0-9][a-z0-9_-]*$/;
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
  /** Every complete record of a stream, in order. */
  read<T = JsonValue>(stream: string): T[];
  /** Records in a stream (counted, not re-read). */
  count(stream: string): number;
  streams(): string[];
  /** Writes `checkpoints/snapshot-<seq>.json` atomically and returns it. */
  writeSnapshot<T>(name: string, value: T): Snapshot<T>;
  /** The newest complete snapshot, if any. */
  latestSnapshot<T = JsonValue>(): Snapshot<T> | undefined;
  /** Atomically writes a file under the run directory (config.json, skills/…/SKILL.md, report.html). */
  writeFile(relativePath: string, data: string | Uint8Array): string;
  readFile(relativePath: string): string | undefined;
  /** fsyncs every open stream. */
  flush(): void;
  close(): void;
}

interface StreamState {
  fd: number;
  count: number;
}

function checkStreamName(stream: string): void {
  if (typeof stream !== 'string' || !STREAM_NAME.test(stream)) {
    throw new InvalidArgumentError(
      'stream name',
      `"${String(stream)}"; use lowercase letters, digits, "-" and "_" (e.g. "events", "rollouts")`,
    );
  }
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
  const data = readFileSync(path);
  let count = 0;
  let start = 0;
  let lineNo = 0;
  while (start < data.length) {
    const nl = data.indexOf(0x0a, start);
    lineNo++;
    if (nl === -1) {
      // No newline: the final write was cut short. Everything before it is intact.
      const bytes = data.length - start;
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, start);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      report.torn.push({ stream, bytes });
      const message = `${stream}.jsonl: dropped a torn last line (${bytes} bytes after record ${count}); every complete record was kept`;
      report.warnings.push(message);
      warn(message);
      break;
    }
    const line = data.subarray(start, nl).toString('utf8');
    if (line.trim().length > 0) {
      try {
        JSON.parse(line);
      } catch (cause) {
        throw new RunStoreError(
          path,
          `line ${lineNo} is not valid JSON but is followed by more records; the file was edited or damaged, not torn by a crash. Repair or remove that line.`,
          { cause },
        );
      }
      count++;
    }
    start = nl + 1;
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
  const root = resolve(dir);
  const warn = options.onWarning ?? ((m: string) => console.warn(`[skillrl] ${m}`));
  const durability = options.durability ?? 'os';
  mkdirSync(join(root, CHECKPOINT_DIR), { recursive: true });

  const report: RecoveryReport = { records: {}, torn: [], removedTempFiles: [], warnings: [] };
  const open = new Map<string, StreamState>();
  const counts = new Map<string, number>();
  let closed = false;

  for (const entry of readdirSync(root)) {
    if (entry.endsWith('.jsonl')) {
      const stream = entry.slice(0, -'.jsonl'.length);
      if (!STREAM_NAME.test(stream)) continue;
      const n = recoverStream(join(root, entry), stream, report, warn);
      counts.set(stream, n);
      report.records[stream] = n;
    }
  }
  const removeTemps = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith(TEMP_PREFIX)) {
        rmSync(join(folder, entry), { force: true });
        const rel = relative(root, join(folder, entry));
        report.removedTempFiles.push(rel);
        const message = `removed ${rel}, left by a write that was interrupted`;
        report.warnings.push(message);
        warn(message);
      }
    }
  };
  removeTemps(root);
  removeTemps(join(root, CHECKPOINT_DIR));

  let nextSeq = 0;
  for (const entry of readdirSync(join(root, CHECKPOINT_DIR))) {
    const m = SNAPSHOT_FILE.exec(entry);
    if (m) nextSeq = Math.max(nextSeq, Number(m[1]) + 1);
  }

  const ensureOpen = () => {
    if (closed) throw new RunStoreError(root, 'the store is closed');
  };

  const streamState = (stream: string): StreamState => {
    checkStreamName(stream);
    let state = open.get(stream);
    if (!state) {
      const fd = openSync(join(root, `${stream}.jsonl`), 'a');
      state = { fd, count: counts.get(stream) ?? 0 };
      open.set(stream, state);
    }
    return state;
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

  const writeAll = (fd: number, text: string) => {
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (durability === 'fsync') fsyncSync(fd);
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

  return {
    dir: root,
    recovery: report,
    append(stream, record) {
      ensureOpen();
      const state = streamState(stream);
      writeAll(state.fd, serialise(stream, record));
      state.count++;
    },
    appendMany(stream, records) {
      ensureOpen();
      if (records.length === 0) return;
      const state = streamState(stream);
      writeAll(state.fd, records.map((r) => serialise(stream, r)).join(''));
      state.count += records.length;
    },
    read<T>(stream: string): T[] {
      checkStreamName(stream);
      const path = join(root, `${stream}.jsonl`);
      if (!existsSync(path)) return [];
      const text = readFileSync(path, 'utf8');
      const out: T[] = [];
      const lines = text.split('\n');
      // The last element is '' after a final newline, or a tail another process is still writing.
      for (let i = 0; i < lines.length - 1; i++) {
        const line = lines[i]!;
        if (line.trim().length > 0) out.push(JSON.parse(line) as T);
      }
      return out;
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
      writeFileAtomic(path, `${JSON.stringify(body)}\n`);
      return { ...body, path };
    },
    latestSnapshot<T>(): Snapshot<T> | undefined {
      const files = readdirSync(join(root, CHECKPOINT_DIR))
        .filter((f) => SNAPSHOT_FILE.test(f))
        .sort()
        .reverse();
      for (const file of files) {
        const snap = readSnapshotFile<T>(join(root, CHECKPOINT_DIR, file));
        if (snap) return snap;
        const message = `${CHECKPOINT_DIR}/${file} is unreadable; falling back to an earlier snapshot`;
        report.warnings.push(message);
        warn(message);
      }
      return undefined;
    },
    writeFile(relativePath, data) {
      ensureOpen();
      const target = resolveInside(relativePath);
      mkdirSync(dirname(target), { recursive: true });
      writeFileAtomic(target, data);
      return target;
    },
    readFile(relativePath) {
      const target = resolveInside(relativePath);
      return existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    },
    flush() {
      for (const state of open.values()) fsyncSync(state.fd);
    },
    close() {
      if (closed) return;
      for (const state of open.values()) {
        try {
          fsyncSync(state.fd);
        } finally {
          closeSync(state.fd);
        }
      }
      open.clear();
      closed = true;
    },
  };
}
