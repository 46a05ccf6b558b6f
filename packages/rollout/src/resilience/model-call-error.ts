import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.model-call');

/**
 * A model call failed for good: a non-retryable answer (400, 401…) or the retry budget ran out. The message
 * names the endpoint's status and the number of attempts; secrets are redacted by `SkillrlError`.
 */
export class ModelCallError extends SkillrlError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the symbol.
  private readonly [SYMBOL] = true;
  readonly attempts: number;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(
    message: string,
    details: { attempts: number; status?: number; retryable: boolean; cause?: unknown },
  ) {
    super('SKILLRL_MODEL_CALL', message, { cause: details.cause });
    this.name = 'ModelCallError';
    this.attempts = details.attempts;
    this.status = details.status;
    this.retryable = details.retryable;
  }

  static override isInstance(error: unknown): error is ModelCallError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
