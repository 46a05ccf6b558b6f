import type { Command } from 'commander';

/** Ends a command with this exit status; what it had to say is already printed. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * Commander's own error, told by its shape: the program may come from another copy of commander than this
 * package's (each CLI brings its own), so `instanceof` could miss it.
 */
function isCommanderError(error: unknown): error is Error & { code: string; exitCode: number } {
  return (
    error instanceof Error &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { exitCode?: unknown }).exitCode === 'number'
  );
}

/**
 * Runs a commander program on `argv` and returns its exit status, for both CLIs (`create-skillrl`, and
 * `skillrl`, whose `init` is this package's CLI): a `CliExit` ends with its code; help and version are 0;
 * a usage error is 2 (commander prints it; our own `skillrl.*` usage errors are printed here); anything
 * else is printed as `error: <describe(error)>` and is 1.
 */
export async function runProgram(
  program: Command,
  argv: readonly string[],
  err: (text: string) => void,
  describe: (error: unknown) => string = (e) => (e instanceof Error ? e.message : String(e)),
): Promise<number> {
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CliExit) return error.code;
    if (isCommanderError(error)) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code.startsWith('skillrl.')) err(`error: ${error.message}`);
      return error.exitCode === 0 ? 0 : 2;
    }
    err(`error: ${describe(error)}`);
    return 1;
  }
}
