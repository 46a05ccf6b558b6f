import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.invalid-argument');

/** An option or argument has a value that cannot work; the message names it and says what would. */
export class InvalidArgumentError extends SkillrlError {
  readonly argument: string;

  constructor(argument: string, message: string, options: { cause?: unknown } = {}) {
    super('SKILLRL_INVALID_ARGUMENT', `Invalid ${argument}: ${message}`, options);
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'InvalidArgumentError';
    this.argument = argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
