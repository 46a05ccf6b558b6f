import { SkillrlError } from '@skillrl/core';

const MARKER = Symbol.for('skillrl.program-error');

/** Why a program's episode could not finish. Each is an errored episode, never the policy's failure. */
export type ProgramErrorKind =
  /** Exited non-zero, or was killed by a signal it did not get from us. */
  | 'crash'
  /** Ran past `agent.program.timeoutMs`: its whole process group was killed. */
  | 'timeout'
  /** Its last stdout line looks like JSON but is not `{"answer": ...}`. */
  | 'output'
  /** Ended having made no model call through OPENAI_BASE_URL. */
  | 'no-model-call'
  /** A model call failed past its retries (the proxy's upstream). */
  | 'upstream'
  /** The command could not be started (not found, not executable). */
  | 'spawn';

/**
 * A program agent's episode that could not finish. The message names the config field (`agent.program...`)
 * and the fix, and ends with the program's stderr tail where there is one (secrets redacted).
 */
export class ProgramError extends SkillrlError {
  readonly kind: ProgramErrorKind;
  /** The last bytes the program wrote to stderr (redacted). */
  readonly stderrTail: string;

  constructor(kind: ProgramErrorKind, message: string, stderrTail = '', options: { cause?: unknown } = {}) {
    const tail = stderrTail.trim();
    super('SKILLRL_PROGRAM', tail ? `${message}\n--- stderr (last lines) ---\n${tail}` : message, options);
    Object.defineProperty(this, MARKER, { value: true });
    this.name = 'ProgramError';
    this.kind = kind;
    this.stderrTail = tail;
  }

  static override isInstance(error: unknown): error is ProgramError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}
