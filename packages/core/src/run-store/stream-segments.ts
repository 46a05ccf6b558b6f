import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Closed segments of every stream live here, beside the open `<stream>.jsonl` files. */
export const SEGMENT_DIR = 'segments';

// <stream>.<seq>.n<records>.jsonl[.gz]: the record count is in the name, so counting a stream never
// inflates its segments.
const SEGMENT_FILE = /^([a-z0-9][a-z0-9_-]*)\.(\d{6,})\.n(\d+)\.jsonl(\.gz)?$/;

/** One closed segment: a run of records that were once the stream's open file. */
export interface SegmentFile {
  stream: string;
  /** Segments are read in `seq` order, then the open file. */
  seq: number;
  records: number;
  gzip: boolean;
  path: string;
}

/** One file to read, in order, to get every record of a stream. */
export interface StreamFile {
  path: string;
  gzip: boolean;
  /** Known without reading for closed segments; undefined for the open file. */
  records?: number;
}

export function segmentFileName(stream: string, seq: number, records: number, gzip: boolean): string {
  return `${stream}.${String(seq).padStart(6, '0')}.n${records}.jsonl${gzip ? '.gz' : ''}`;
}

export interface SegmentListing {
  /** One file per segment, by `seq` (the compressed one where a crash left both). */
  segments: SegmentFile[];
  /**
   * Plain copies whose compressed twin is complete: a crash between writing the `.gz` (atomically) and
   * removing the plain file leaves both, with the same records. Only a writer removes them.
   */
  redundant: string[];
}

/** The closed segments of one stream (or of all streams) under `<root>/segments`. */
export function listSegments(root: string, stream?: string): SegmentListing {
  const folder = join(root, SEGMENT_DIR);
  if (!existsSync(folder)) return { segments: [], redundant: [] };
  const bySeq = new Map<string, SegmentFile[]>();
  for (const name of readdirSync(folder)) {
    const m = SEGMENT_FILE.exec(name);
    if (!m) continue;
    const [, s, seq, records, gz] = m as unknown as [string, string, string, string, string | undefined];
    if (stream !== undefined && s !== stream) continue;
    const file: SegmentFile = {
      stream: s,
      seq: Number(seq),
      records: Number(records),
      gzip: gz !== undefined,
      path: join(folder, name),
    };
    const key = `${s}\u0000${file.seq}`;
    bySeq.set(key, [...(bySeq.get(key) ?? []), file]);
  }
  const segments: SegmentFile[] = [];
  const redundant: string[] = [];
  for (const files of bySeq.values()) {
    const gz = files.find((f) => f.gzip);
    if (gz) {
      segments.push(gz);
      for (const f of files) if (!f.gzip) redundant.push(f.path);
    } else segments.push(files[0] as SegmentFile);
  }
  segments.sort((a, b) => a.stream.localeCompare(b.stream) || a.seq - b.seq);
  return { segments, redundant };
}

/**
 * The files holding a stream's records, in order: its closed segments (plain or gzip), then the open
 * `<stream>.jsonl`. A run directory written before segments existed has only the open file; both layouts
 * read the same way.
 */
export function streamFiles(root: string, stream: string): StreamFile[] {
  const files: StreamFile[] = listSegments(root, stream).segments.map((s) => ({
    path: s.path,
    gzip: s.gzip,
    records: s.records,
  }));
  const open = join(root, `${stream}.jsonl`);
  if (existsSync(open)) files.push({ path: open, gzip: false });
  return files;
}
