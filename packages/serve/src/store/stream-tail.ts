import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type StreamFile, streamFiles } from '@skillrl/core';
import { reallyInside } from './inside-dir.js';

/**
 * One complete record line of a stream, as the tail reads it. `bytes` is valid only during the callback (it
 * is a view of a read buffer); `start`/`end` are its offsets in the file that holds it.
 */
export interface TailLine {
  bytes: Buffer;
  /** Its place in the whole stream (segments first, then the open file), counting records from 0. */
  ordinal: number;
  start: number;
  /** Offset just after the line's last byte (before its newline). */
  end: number;
}

export interface TailHandlers {
  line(line: TailLine): void;
  /** The stream was rewritten under the reader (records it had read are gone): forget them, it reads again. */
  reset(): void;
}

const NEWLINE = 0x0a;
const CHUNK = 1 << 20;

/**
 * Calls `emit` for each complete, non-blank line of `data` (whose first byte sits at file offset `base`) and
 * returns how many bytes it consumed: up to and including the last newline, so an unfinished last line is
 * read again once the writer has finished it.
 */
function scanLines(
  data: Buffer,
  length: number,
  base: number,
  emit: (bytes: Buffer, start: number, end: number) => void,
) {
  let from = 0;
  while (from < length) {
    const nl = data.indexOf(NEWLINE, from);
    if (nl === -1 || nl >= length) break;
    // The store never writes blank lines and does not count them in a segment's name; neither does the tail.
    let blank = true;
    for (let i = from; i < nl; i++) {
      const c = data[i];
      if (c !== 0x20 && c !== 0x09 && c !== 0x0d) {
        blank = false;
        break;
      }
    }
    if (!blank) emit(data.subarray(from, nl), base + from, base + nl);
    from = nl + 1;
  }
  return from;
}

/**
 * Follows one stream of a run directory as the run appends to it, reading each record once: closed segments
 * (whose record counts are in their names), then the open `<stream>.jsonl` from where the last read stopped.
 * A poll that finds nothing new costs a stat of the open file and a listing of `segments/`; a rotation (the
 * open file renamed into a segment, then gzipped) is recognised from the counts, and only the records not yet
 * read are taken from the new segment. Core's `readRunStream` reads a stream whole; a live view that reread
 * every stream on every change would cost O(run) per update, hence this reader.
 */
export class StreamTail {
  /** Records read so far: the ordinal of the next one. */
  private consumed = 0;
  /** Ordinal of the open file's first record (the records of every segment before it). */
  private openFirst = 0;
  /** Bytes of the open file read, always at a line boundary. */
  private openOffset = 0;
  private openIno: number | undefined;
  private readonly checked = new Set<string>();

  constructor(
    readonly dir: string,
    readonly stream: string,
    /** The served folder's real path: a stream file that is a symlink out of it is never read. */
    private readonly realRoot: string,
  ) {}

  /** Records read so far. */
  get records(): number {
    return this.consumed;
  }

  /** Reads what the stream gained since the last call. Returns the number of new records. */
  read(handlers: TailHandlers): number {
    const before = this.consumed;
    const files = streamFiles(this.dir, this.stream);
    const segments = files.filter((f) => f.records !== undefined);
    const segmentRecords = segments.reduce((a, f) => a + (f.records as number), 0);
    if (segmentRecords < this.openFirst) {
      // Segments went away (a repair rewrote the stream): start over.
      this.restart(handlers);
      return this.read(handlers);
    }
    if (segmentRecords > this.openFirst) {
      // One or more rotations since the last read: what was read of the old open file is now the first
      // records of the new segments, byte for byte; only the records after those are new.
      let first = 0;
      for (const segment of segments) {
        const n = segment.records as number;
        if (first + n > this.consumed && !this.readSegment(segment, first, handlers))
          return this.consumed - before;
        first += n;
      }
      this.consumed = segmentRecords;
      this.openFirst = segmentRecords;
      this.openOffset = 0;
      this.openIno = undefined;
    }
    const open = join(this.dir, `${this.stream}.jsonl`);
    if (!existsSync(open) || !this.allowed(open)) return this.consumed - before;
    let fd: number;
    try {
      fd = openSync(open, 'r');
    } catch {
      return this.consumed - before;
    }
    try {
      const stat = fstatSync(fd);
      const replaced = this.openIno !== undefined && stat.ino !== this.openIno;
      if (replaced && this.segmentRecords() > this.openFirst) {
        // Rotated after the listing above: the next read takes the new segment first.
        return this.consumed - before;
      }
      if (replaced || stat.size < this.openOffset) {
        // Replaced or shorter than what was read, with no rotation: the stream was rewritten (records taken out
        // by `resume --drop-damaged`), so what was read may no longer be there.
        this.restart(handlers);
        closeSync(fd);
        fd = -1;
        return this.read(handlers);
      }
      this.openIno = stat.ino;
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, stat.size - this.openOffset)));
      let pending: Buffer | undefined;
      while (this.openOffset < stat.size) {
        const want = Math.min(buffer.length, stat.size - this.openOffset - (pending?.length ?? 0));
        if (want <= 0) break;
        const n = readSync(fd, buffer, 0, want, this.openOffset + (pending?.length ?? 0));
        if (n === 0) break;
        const data = pending ? Buffer.concat([pending, buffer.subarray(0, n)]) : buffer;
        const length = pending ? data.length : n;
        const used = scanLines(data, length, this.openOffset, (bytes, start, end) =>
          handlers.line({ bytes, ordinal: this.consumed++, start, end }),
        );
        this.openOffset += used;
        // A line longer than one chunk: keep its start and read on.
        pending = used < length ? Buffer.from(data.subarray(used, length)) : undefined;
      }
    } finally {
      if (fd !== -1) closeSync(fd);
    }
    return this.consumed - before;
  }

  /** Reads the records of one segment from ordinal `this.consumed` on; false if it could not be read now. */
  private readSegment(segment: StreamFile, first: number, handlers: TailHandlers): boolean {
    if (!this.allowed(segment.path)) return true;
    let data: Buffer;
    try {
      data = segment.gzip ? gunzipSync(readFileSync(segment.path)) : readFileSync(segment.path);
    } catch {
      // Compressed and removed between the listing and the read: the next read finds its .gz twin.
      return false;
    }
    let ordinal = first;
    scanLines(data, data.length, 0, (bytes, start, end) => {
      if (ordinal >= this.consumed) {
        handlers.line({ bytes, ordinal, start, end });
        this.consumed = ordinal + 1;
      }
      ordinal++;
    });
    return true;
  }

  private segmentRecords(): number {
    return streamFiles(this.dir, this.stream).reduce((a, f) => a + (f.records ?? 0), 0);
  }

  /** Reads the stream from its first record again at the next `read` (the caller has forgotten it). */
  rewind(): void {
    this.consumed = 0;
    this.openFirst = 0;
    this.openOffset = 0;
    this.openIno = undefined;
  }

  private restart(handlers: TailHandlers): void {
    this.rewind();
    handlers.reset();
  }

  private allowed(path: string): boolean {
    if (this.checked.has(path)) return true;
    if (!reallyInside(this.realRoot, path)) return false;
    this.checked.add(path);
    return true;
  }
}

/** A cheap fingerprint of what a run directory's streams and files hold now: stats only, nothing read. */
export function runSignature(dir: string): string {
  const parts: string[] = [];
  for (const name of [
    'events.jsonl',
    'rollouts.jsonl',
    'segments',
    'bank.jsonl',
    'summary.json',
    'run.json',
  ]) {
    try {
      const s = statSync(join(dir, name));
      parts.push(`${s.ino}:${s.size}:${s.mtimeMs}`);
    } catch {
      parts.push('-');
    }
  }
  return parts.join('|');
}
