import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** One complete line of a JSONL file (without its newline), with where it sits in the file's bytes. */
export interface JsonlLine {
  kind: 'line';
  text: string;
  /** 1-based line number in its file. */
  lineNo: number;
  /** Byte offset of the line's first byte; `end` is the offset just after its newline. */
  start: number;
  end: number;
}

/** Bytes after the last newline: a write still under way, or one a crash cut short. */
export interface JsonlTail {
  kind: 'tail';
  start: number;
  bytes: number;
}

const NEWLINE = 0x0a;
/** Read size for plain files: memory stays at about this much whatever the file's length. */
const CHUNK_BYTES = 1 << 20;

/** The complete lines of one buffer, then its tail if the buffer does not end with a newline. */
export function* bufferLines(data: Buffer): Generator<JsonlLine | JsonlTail> {
  let start = 0;
  let lineNo = 0;
  while (start < data.length) {
    const nl = data.indexOf(NEWLINE, start);
    if (nl === -1) {
      yield { kind: 'tail', start, bytes: data.length - start };
      return;
    }
    lineNo++;
    yield { kind: 'line', text: data.toString('utf8', start, nl), lineNo, start, end: nl + 1 };
    start = nl + 1;
  }
}

/**
 * The lines of a plain JSONL file, read in 1 MiB chunks so that a file of any size is scanned in constant
 * memory (plus the longest line). A last line without a newline comes last as a `tail`.
 */
export function* plainFileLines(path: string): Generator<JsonlLine | JsonlTail> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    // Bytes of a line that began in an earlier chunk and has not ended yet.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let offset = 0; // file offset of chunk[0]
    let lineStart = 0; // file offset of the current line's first byte
    let lineNo = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, offset);
      if (n === 0) break;
      let from = 0;
      while (from < n) {
        const nl = chunk.indexOf(NEWLINE, from);
        if (nl === -1 || nl >= n) {
          pending.push(Buffer.from(chunk.subarray(from, n)));
          pendingBytes += n - from;
          break;
        }
        lineNo++;
        const text =
          pendingBytes === 0
            ? chunk.toString('utf8', from, nl)
            : Buffer.concat([...pending, chunk.subarray(from, nl)]).toString('utf8');
        pending = [];
        pendingBytes = 0;
        const end = offset + nl + 1;
        yield { kind: 'line', text, lineNo, start: lineStart, end };
        lineStart = end;
        from = nl + 1;
      }
      offset += n;
    }
    if (pendingBytes > 0) yield { kind: 'tail', start: lineStart, bytes: pendingBytes };
  } finally {
    closeSync(fd);
  }
}

/** The lines of a gzip-compressed segment (segments are bounded in size, so it is inflated whole). */
export function gzipFileLines(path: string): Generator<JsonlLine | JsonlTail> {
  return bufferLines(gunzipSync(readFileSync(path)));
}
