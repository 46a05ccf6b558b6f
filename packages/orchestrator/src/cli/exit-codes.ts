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
  /** The run's error budget (`health`) stopped it: most model or editor calls failed. */
  health: 3,
  /** Stopped by SIGINT (Ctrl-C) or SIGTERM, after writing `run:end` cancelled: 128 + the signal's number. */
  SIGINT: 130,
  SIGTERM: 143,
} as const;
