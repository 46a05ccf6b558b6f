import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  gzipFileLines,
  plainFileLines,
  RunStoreError,
  type StreamFile,
  streamFiles,
  type Trajectory,
} from '@skillrl/core';

const LEADING_ID = /^\{"id":"((?:[^"\\]|\\.)*)"/;

const flat = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/**
 * A trajectory line's id, read from its start (the run writes `id` first) without parsing the whole line;
 * any other line is parsed.
 */
export function trajectoryIdOf(line: string): string | undefined {
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
 * Where each stored trajectory sits in rollouts.jsonl and its segments (the last record of an id wins: a
 * rollout whose model call failed may have been run again on a resume), read back one at a time. Memory is
 * an index entry per trajectory plus one inflated segment, not every trajectory of the run: resuming a long
 * run, replaying a trainer's updates, and evaluating its policy no longer hold the run's history.
 */
export class StoredTrajectories {
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
        const id = trajectoryIdOf(line.text);
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

  /** The trajectory stored under `id` (its last record), or undefined. */
  get(id: string): Trajectory | undefined {
    const found = this.read(id);
    if (found !== null) return found;
    // The open file was rotated into a segment since the index was built (the run appended meanwhile):
    // its records moved, so the index is rebuilt once.
    this.build();
    const again = this.read(id);
    if (again === null) {
      throw new RunStoreError(this.dir, `the record of trajectory "${id}" could not be read back`);
    }
    return again;
  }

  /** undefined: no such id; null: the location no longer holds it. */
  private read(id: string): Trajectory | undefined | null {
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
      const trajectory = JSON.parse(text) as Trajectory;
      return trajectory.id === id ? trajectory : null;
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
