import { SkillrlError } from '@skillrl/core';

/**
 * The CLI's exit statuses. 3 and 128+n leave a resumable run: everything finished is on disk and the
 * latest checkpoint is consistent.
 */
export const EXIT_CODES = {
  ok: 0,
  /** Bad input or a failure, with the message (or `{ ok: false, error }` under `--json`). */
  failure: 1,
  /** A usage error (an unknown flag, a malformed `--set`). */
  usage: 2,
  /**
   * The run stopped and is resumable once the cause is fixed: its error budget (`health`) stopped it (most
   * model or editor calls failed), or its rollout workers did (`RESUMABLE_STOP_CODES`).
   */
  health: 3,
  /** Stopped by SIGINT (Ctrl-C) or SIGTERM, after writing `run:end` cancelled: 128 + the signal's number. */
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/**
 * Codes of the errors, besides the error budget's, that stop a run and leave it resumable (exit 3): the
 * rollout queue's (`@skillrl/queue`, an optional peer, so recognised by code rather than by class). Each
 * has written `run:end` failed and names the command that continues the run.
 */
export const RESUMABLE_STOP_CODES: ReadonlySet<string> = new Set([
  // No worker listened for workers.noWorkerTimeoutMs.
  'SKILLRL_NO_WORKER',
  // Redis refused, or was lost and not back, for workers.connectTimeoutMs.
  'SKILLRL_REDIS_UNAVAILABLE',
  // An episode's job failed on every attempt (its parts did not load on the worker, say).
  'SKILLRL_EPISODE_JOB_FAILED',
  // A worker returned something that is not the episode's trajectory (nothing of it was stored).
  'SKILLRL_EPISODE_RESULT_INVALID',
]);

/** The error stopped the run in a way `skillrl resume` continues from (exit 3), other than the budget's. */
export function isResumableStop(error: unknown): boolean {
  return SkillrlError.isInstance(error) && RESUMABLE_STOP_CODES.has(error.code);
}
