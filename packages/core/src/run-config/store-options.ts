/** How a run directory is kept on disk (`store` in the config). */
export interface StoreOptions {
  /**
   * A stream's open JSONL file is closed into a segment (`segments/<stream>.<seq>.n<records>.jsonl.gz`) once it
   * holds this many bytes. Default 4 MiB.
   */
  segmentBytes?: number;
  /** Closed segments: `gzip` (default) or `none` (plain JSONL). */
  compression?: 'gzip' | 'none';
  /** Checkpoints kept (the newest); older snapshots and learner-state folders are removed. Default 2. */
  keepCheckpoints?: number;
  /**
   * When a session closes (a run ends, stops or is cancelled), each stream's open JSONL file holding at least
   * this many bytes is gzipped into a segment too (under `compression: gzip`), so a run smaller than one
   * segment is not left uncompressed: an LLM run's episodes are 30–60 KB of JSON each, about 4 KB gzipped.
   * Smaller files stay plain `<stream>.jsonl`, readable with any tool. Default 1 MiB; 0 compresses every
   * stream; `segmentBytes` or more never.
   */
  compressOnCloseBytes?: number;
}

export type ResolvedStoreOptions = Required<StoreOptions>;

export const STORE_DEFAULTS: ResolvedStoreOptions = {
  segmentBytes: 4 * 1024 * 1024,
  compression: 'gzip',
  keepCheckpoints: 2,
  compressOnCloseBytes: 1024 * 1024,
};

export function resolveStoreOptions(options: StoreOptions | undefined): ResolvedStoreOptions {
  return { ...STORE_DEFAULTS, ...(options ?? {}) };
}

/** The `store` section of the config schema. */
export const storeSchema = {
  type: 'object',
  description:
    'Run directory layout: segment size and compression of the JSONL streams (and of open files at close), checkpoints kept.',
  properties: {
    segmentBytes: { type: 'integer', minimum: 4096 },
    compression: { enum: ['gzip', 'none'] },
    keepCheckpoints: { type: 'integer', minimum: 1 },
    compressOnCloseBytes: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;
