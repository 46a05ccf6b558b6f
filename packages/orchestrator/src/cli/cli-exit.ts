/** Ends a command with this exit status; what it had to say is already printed. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
