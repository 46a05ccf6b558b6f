import type { RunEvent } from '@skillrl/core';
import type { AppliedOverride } from './config-overrides.js';

/** Rollout progress, for progress bars. */
export interface RunProgress {
  /** Rollouts finished (reused ones included) out of the run's planned total. */
  done: number;
  total: number;
  /** Rollouts taken from rollouts.jsonl on resume instead of being run again. */
  reused: number;
  /** Success rate of the rollouts finished so far. */
  successRate: number;
  /** What the loop is doing, e.g. `generation 2/3` or `step 4/20`. */
  phase: string;
}

export interface RunOptions {
  /** Overrides the run folder (default `<config dir>/<runDir>/<name>`). */
  runDir?: string;
  onEvent?: (event: RunEvent) => void;
  onProgress?: (progress: RunProgress) => void;
  signal?: AbortSignal;
  /** Reported for recoverable problems (a torn JSONL line dropped on resume). */
  onWarning?: (message: string) => void;
  /**
   * Set by `resumeRun` when it applied `--set` overrides: recorded in the run directory (overrides.jsonl,
   * and config.json rewritten), secrets redacted.
   */
  overrides?: AppliedOverride[];
}

export interface RunResult {
  runId: string;
  dir: string;
  method: 'evolve' | 'internalize';
  status: 'completed';
  /** Final metrics, as written to summary.json. */
  metrics: Record<string, number>;
  /** Rollouts reused from disk (a resumed run) and rollouts run in this process. */
  reused: number;
  ran: number;
  /** True when `resumeRun` found the run already finished: nothing ran and nothing was written. */
  alreadyCompleted?: boolean;
}
