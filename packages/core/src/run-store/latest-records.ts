import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Trajectory } from '../contracts/trajectory.js';
import { RunStoreError } from '../errors/run-store-error.js';
import { gzipFileLines, plainFileLines } from './jsonl-lines.js';
import { type ReadRunStreamOptions, readRunStreamEntries, readRunStreamLines } from './read-run-stream.js';
import { type StreamFile, streamFiles } from './stream-segments.js';

const LEADING_ID = /^\{"id":"((?:[^"\\]|\\.)*)"/;

const flat = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/**
 * A record line's id (a trajectory's rollout id), read from its start (the run writes `id` first) without
 * parsing the whole line; any other line is parsed. `undefined` for a line with no string `id`.
 */
export function recordIdOf(line: string): string | undefined {
  const m = LEADING_ID.exec(line);
  // A match is a slice of the line, and V8 keeps the whole line alive behind a slice: an index of ids would
  // hold every trajectory's text. Copied out, the id stands alone.
  if (m) return m[1]?.includes('\\') ? (JSON.parse(`"${m[1]}"`) as string) : flat(m[1] as string);
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

interface Location {
  file: number;
  start: number;
  end: number;
}

/**
 * The one reader of "the latest record per rollout id", by id. A rollout whose model call failed is run
 * again on resume and appended a second time under the same id: the latest record is the rollout as it
 * finally ended, and every reader (the run session, eval's replay, export, the report) sees that one and
 * only that one. This is the random-access form: where each id's latest record sits in rollouts.jsonl and
 * its segments, read back one at a time. Memory is an index entry per id plus one inflated segment, not
 * every trajectory of the run. `readLatestRecords` is the streaming form.
 */
export class LatestRecords<T extends { id: string } = Trajectory> {
  private files: StreamFile[] = [];
  private readonly where = new Map<string, Location>();
  private cached: { file: number; data: Buffer } | undefined;

  constructor(
    private readonly dir: string,
    private readonly stream = 'rollouts',
  ) {
    this.build();
  }

  private build(): void {
    this.where.clear();
    this.cached = undefined;
    this.files = streamFiles(this.dir, this.stream);
    this.files.forEach((file, i) => {
      const lines = file.gzip ? gzipFileLines(file.path) : plainFileLines(file.path);
      for (const line of lines) {
        if (line.kind !== 'line' || line.text.trim().length === 0) continue;
        const id = recordIdOf(line.text);
        if (id !== undefined) this.where.set(id, { file: i, start: line.start, end: line.end - 1 });
      }
    });
  }

  get size(): number {
    return this.where.size;
  }

  has(id: string): boolean {
    return this.where.has(id);
  }

  ids(): IterableIterator<string> {
    return this.where.keys();
  }

  /** The latest record stored under `id`, or undefined. */
  get(id: string): T | undefined {
    const found = this.read(id);
    if (found !== null) return found;
    // The open file was rotated into a segment since the index was built (the run appended meanwhile):
    // its records moved, so the index is rebuilt once.
    this.build();
    const again = this.read(id);
    if (again === null) {
      throw new RunStoreError(this.dir, `the record "${id}" of ${this.stream} could not be read back`);
    }
    return again;
  }

  /** undefined: no such id; null: the location no longer holds it. */
  private read(id: string): T | undefined | null {
    const at = this.where.get(id);
    if (!at) return undefined;
    const file = this.files[at.file] as StreamFile;
    let text: string;
    try {
      text = this.textAt(file, at);
    } catch {
      return null;
    }
    try {
      const record = JSON.parse(text) as T;
      return record.id === id ? record : null;
    } catch {
      return null;
    }
  }

  private textAt(file: StreamFile, at: Location): string {
    let text: string;
    if (file.gzip) {
      if (this.cached?.file !== at.file) {
        this.cached = { file: at.file, data: gunzipSync(readFileSync(file.path)) };
      }
      text = this.cached.data.toString('utf8', at.start, at.end);
    } else {
      const buf = Buffer.allocUnsafe(at.end - at.start);
      const fd = openSync(file.path, 'r');
      try {
        let off = 0;
        while (off < buf.length) {
          const n = readSync(fd, buf, off, buf.length - off, at.start + off);
          if (n === 0) break;
          off += n;
        }
      } finally {
        closeSync(fd);
      }
      text = buf.toString('utf8');
    }
    return text;
  }

  /** Frees the inflated segment kept for sequential reads. */
  release(): void {
    this.cached = undefined;
  }
}

/**
 * Every record of a stream in file order, except those a later record with the same id replaces: the latest
 * record per id, streamed (two passes over the files, memory one index entry per id). Records without an
 * id are yielded as they are. `keyOf` names the id of other shapes (a rollout event's `trajectoryId`); by
 * default a record's `id`, read from the start of its line without parsing it.
 */
export function* readLatestRecords<T = unknown>(
  dir: string,
  stream: string,
  options: ReadRunStreamOptions & {
    keyOf?: (record: T) => string | undefined;
    /**
     * Only records whose id this accepts are yielded; with the default key, the others are skipped without
     * being parsed (an export that wants the trained rollouts skips the validation ones for the cost of a
     * regular expression).
     */
    want?: (id: string) => boolean;
  } = {},
): Generator<T> {
  const { keyOf, want, ...read } = options;
  const parse = (line: string): T | undefined => {
    try {
      return JSON.parse(line) as T;
    } catch {
      return undefined;
    }
  };
  const idOf = (line: string, record?: T): string | undefined => {
    if (!keyOf) return recordIdOf(line);
    const r = record ?? parse(line);
    return r === undefined ? undefined : keyOf(r);
  };
  // Pass 1: the ordinal of each id's latest record (notes are said once, by the second pass).
  const last = new Map<string, number>();
  let ordinal = 0;
  for (const line of readRunStreamLines(dir, stream)) {
    const id = idOf(line);
    if (id !== undefined) last.set(id, ordinal);
    ordinal++;
  }
  ordinal = 0;
  for (const line of readRunStreamEntries(dir, stream, read)) {
    const at = ordinal++;
    // A cheap skip for a replaced record keyed at its start; anything else is parsed once.
    if (!keyOf) {
      const id = recordIdOf(line.text);
      if (id !== undefined && (last.get(id) !== at || (want && !want(id)))) continue;
    }
    const record = parse(line.text);
    if (record === undefined) {
      read.onNote?.({ kind: 'damaged', file: line.file, lineNo: line.lineNo });
      continue;
    }
    if (keyOf) {
      const id = keyOf(record);
      if (id !== undefined && (last.get(id) !== at || (want && !want(id)))) continue;
    }
    yield record;
  }
}
