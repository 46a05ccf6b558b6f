/** Where a command writes: its result lines and its errors, warnings and progress. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The process's stdout and stderr, a line per call. */
export const defaultIo: CliIo = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
};

/** Wraps an action: errors become `error: …` (or a JSON error with --json) and exit status 1. */
export type WithErrors = <A extends unknown[]>(
  fn: (...args: A) => Promise<void>,
) => (...args: A) => Promise<void>;
