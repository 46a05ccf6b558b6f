import { closeSync, existsSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

/**
 * The complete lines of a JSONL file, in order, read in 1 MiB chunks: memory stays at one chunk plus the
 * longest line however large the file. A last line without its newline (a write still going, or torn by a
 * crash) is left out, as the run store leaves it out. A missing file has no lines.
 */
export function* jsonlLines(path: string): Generator<string> {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer[] = [];
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      let start = 0;
      for (let i = buffer.indexOf(10, 0); i !== -1 && i < n; i = buffer.indexOf(10, start)) {
        const piece = buffer.subarray(start, i);
        const line =
          pending.length > 0 ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8');
        pending = [];
        start = i + 1;
        if (line.trim().length > 0) yield line;
      }
      if (start < n) pending.push(Buffer.from(buffer.subarray(start, n)));
    }
  } finally {
    closeSync(fd);
  }
}

/** `jsonlLines`, each parsed. */
export function* jsonlRecords<T>(path: string): Generator<T> {
  for (const line of jsonlLines(path)) yield JSON.parse(line) as T;
}

const LEADING_ID = /^\{"id":"((?:[^"\\]|\\.)*)"/;

/**
 * A trajectory line's id without parsing the line (trajectories are written with `id` first), so lines the
 * export does not need — validation rollouts — are skipped for the cost of a regular expression.
 */
export function leadingId(line: string): string | undefined {
  const m = LEADING_ID.exec(line);
  return m ? (JSON.parse(`"${m[1]}"`) as string) : undefined;
}
