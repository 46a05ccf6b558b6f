import { relative, resolve } from 'node:path';
import { checkStreamName } from './check-stream-name.js';
import { gzipFileLines, type JsonlLine, type JsonlTail, plainFileLines } from './jsonl-lines.js';
import { type StreamFile, streamFiles } from './stream-segments.js';

/** Something a read-only reader skipped, phrased by file (relative to the run directory). */
export type StreamReadNote =
  | { kind: 'torn'; file: string; bytes: number }
  | { kind: 'damaged'; file: string; lineNo: number }
  | { kind: 'unreadable'; file: string; reason: string };

export interface ReadRunStreamOptions {
  /** Receives what was skipped: a last line still being written, a damaged line, a segment that fails to inflate. */
  onNote?: (note: StreamReadNote) => void;
}

function linesOf(file: StreamFile): Generator<JsonlLine | JsonlTail> {
  return file.gzip ? gzipFileLines(file.path) : plainFileLines(file.path);
}

/** A stream's non-blank complete lines with the file (relative) each stands in; what is skipped is noted. */
function* streamLines(
  dir: string,
  stream: string,
  options: ReadRunStreamOptions,
): Generator<{ line: JsonlLine; label: string }> {
  checkStreamName(stream);
  const root = resolve(dir);
  for (const file of streamFiles(root, stream)) {
    const label = relative(root, file.path);
    try {
      for (const line of linesOf(file)) {
        if (line.kind === 'tail') {
          options.onNote?.({ kind: 'torn', file: label, bytes: line.bytes });
          continue;
        }
        if (line.text.trim().length > 0) yield { line, label };
      }
    } catch (error) {
      // A segment removed between listing and reading (a writer rotating), or a damaged gzip file.
      options.onNote?.({ kind: 'unreadable', file: label, reason: (error as Error).message });
    }
  }
}

/**
 * The raw lines of a stream, in order, across both layouts (closed segments, plain or gzip, then the open
 * `<stream>.jsonl`; or the single file of an older run directory), read in bounded memory and never
 * written to: a run that is still going keeps its files as they are. Blank lines are skipped; an unfinished
 * last line is skipped with a note.
 */
export function* readRunStreamLines(
  dir: string,
  stream: string,
  options: ReadRunStreamOptions = {},
): Generator<string> {
  for (const { line } of streamLines(dir, stream, options)) yield line.text;
}

/** One line of a stream with where it is: the file (relative to the run directory) and its 1-based line. */
export interface RunStreamLine {
  text: string;
  file: string;
  lineNo: number;
}

/** The lines of a stream as `readRunStreamLines` reads them, each with its file and line number. */
export function* readRunStreamEntries(
  dir: string,
  stream: string,
  options: ReadRunStreamOptions = {},
): Generator<RunStreamLine> {
  for (const { line, label } of streamLines(dir, stream, options)) {
    yield { text: line.text, file: label, lineNo: line.lineNo };
  }
}

/** Every record of a stream, parsed, in order (see `readRunStreamLines`); a damaged line is skipped with a note. */
export function* readRunStream<T = unknown>(
  dir: string,
  stream: string,
  options: ReadRunStreamOptions = {},
): Generator<T> {
  for (const { line, label } of streamLines(dir, stream, options)) {
    let record: T;
    try {
      record = JSON.parse(line.text) as T;
    } catch {
      options.onNote?.({ kind: 'damaged', file: label, lineNo: line.lineNo });
      continue;
    }
    yield record;
  }
}
