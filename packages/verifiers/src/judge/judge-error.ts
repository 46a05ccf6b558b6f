import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.judge');

/**
 * The judge model could not be asked: its endpoint failed past the retry budget (5xx, 429, timeout, refused
 * connection). The message never contains the API key (SkillrlError redacts it).
 */
export class JudgeError extends SkillrlError {
  /** HTTP status when the server answered, else undefined (timeout, connection error). */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super('SKILLRL_JUDGE', message, { cause: options.cause });
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'JudgeError';
    this.status = options.status;
  }

  static override isInstance(error: unknown): error is JudgeError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
