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
}

export type ResolvedStoreOptions = Required<StoreOptions>;

export const STORE_DEFAULTS: ResolvedStoreOptions = {
  segmentBytes: 4 * 1024 * 1024,
  compression: 'gzip',
  keepCheckpoints: 2,
};

export function resolveStoreOptions(options: StoreOptions | undefined): ResolvedStoreOptions {
  return { ...STORE_DEFAULTS, ...(options ?? {}) };
}

/** The `store` section of the config schema. */
export const storeSchema = {
  type: 'object',
  description: 'Run directory layout: segment size and compression of the JSONL streams, checkpoints kept.',
  properties: {
    segmentBytes: { type: 'integer', minimum: 4096 },
    compression: { enum: ['gzip', 'none'] },
    keepCheckpoints: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
} as const;
