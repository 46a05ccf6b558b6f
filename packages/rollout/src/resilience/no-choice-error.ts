import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.no-choice');

/**
 * The endpoint answered 200 with nothing the caller can use: no `choices` field, `choices: []`, or only
 * choices without text (content `null`, a tool call where text was asked for). A gateway that filtered every
 * choice or a server that hiccupped answers this way, so it is retried like a 5xx; past the retry budget it
 * is the `cause` of a `ModelCallError`. The message says what arrived.
 */
export class NoChoiceError extends SkillrlError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the symbol.
  private readonly [SYMBOL] = true;
  /** Always true: the retry policy repeats the request. */
  readonly retryable = true;

  constructor(message: string) {
    super('SKILLRL_NO_CHOICE', message);
    this.name = 'NoChoiceError';
  }

  static override isInstance(error: unknown): error is NoChoiceError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
