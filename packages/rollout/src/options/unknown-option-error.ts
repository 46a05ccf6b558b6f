import { InvalidArgumentError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.unknown-option');

/**
 * An option the component does not have, most often a misspelling (`temprature`): silently ignored it would
 * change nothing and say nothing. `option` is the field's path (`agent.options.temprature`); the message
 * says the fix ("did you mean temperature?"). An `InvalidArgumentError`, so code that catches those catches it.
 */
export class UnknownOptionError extends InvalidArgumentError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the symbol.
  private readonly [SYMBOL] = true;
  /** The option's path, e.g. `agent.options.temprature`. */
  readonly option: string;
  /** The option meant, when one is close: `temperature`, `extraBody.presence_penalty`. */
  readonly suggestion: string | undefined;

  constructor(option: string, message: string, suggestion?: string) {
    super(option, message);
    this.name = 'UnknownOptionError';
    this.option = option;
    this.suggestion = suggestion;
  }

  static override isInstance(error: unknown): error is UnknownOptionError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
