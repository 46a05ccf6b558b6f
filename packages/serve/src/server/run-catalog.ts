import { realpathSync } from 'node:fs';
import { findRuns } from '../store/find-runs.js';
import { RunReader } from '../store/run-reader.js';

export interface RunCatalogOptions {
  /** How deep under the folder runs are looked for (default 3: runs/<bench>/<seed>/). */
  maxDepth?: number;
  /** Listing the folder again is skipped within this many ms (default 1000). */
  rescanMs?: number;
  /** A run's rollout table (the trajectory views' index) is dropped after this long unused (default 2 min). */
  tableIdleMs?: number;
}

/**
 * The runs under the served folder, each with its reader. Requests name a run by the id this catalog gave
 * it, never by a path: an id it does not hold is simply unknown, whatever `..` or `%2e%2e` it carries.
 */
export class RunCatalog {
  readonly realRoot: string;
  private readers = new Map<string, RunReader>();
  private scannedAt = Number.NEGATIVE_INFINITY;
  private readonly maxDepth: number;
  private readonly rescanMs: number;
  private readonly tableIdleMs: number;

  constructor(
    readonly root: string,
    options: RunCatalogOptions = {},
  ) {
    this.realRoot = realpathSync(root);
    this.maxDepth = options.maxDepth ?? 3;
    this.rescanMs = options.rescanMs ?? 1000;
    this.tableIdleMs = options.tableIdleMs ?? 120_000;
  }

  /** Lists the folder again if the last listing is older than `rescanMs` (or `force`). */
  scan(force = false): RunReader[] {
    if (force || Date.now() - this.scannedAt >= this.rescanMs) {
      this.scannedAt = Date.now();
      const next = new Map<string, RunReader>();
      for (const run of findRuns(this.root, this.realRoot, this.maxDepth)) {
        const known = this.readers.get(run.id);
        next.set(run.id, known?.dir === run.dir ? known : new RunReader(run.id, run.dir, this.realRoot));
      }
      this.readers = next;
    }
    return [...this.readers.values()];
  }

  /** The run of that id, read up to now; undefined if the folder holds no such run. */
  get(id: string): RunReader | undefined {
    let reader = this.readers.get(id);
    if (!reader) {
      this.scan(true);
      reader = this.readers.get(id);
    }
    reader?.refresh();
    return reader;
  }

  /** Every run, each read up to now; rollout tables no page used for `tableIdleMs` are let go. */
  all(): RunReader[] {
    const readers = this.scan();
    for (const r of readers) {
      r.refresh();
      r.releaseIdle(this.tableIdleMs);
    }
    return readers;
  }
}
