// The markers @skillrl/core's SkillrlError and InvalidArgumentError carry: a ScaffoldError is recognised by
// `SkillrlError.isInstance(e)` and `InvalidArgumentError.isInstance(e)` (the skillrl CLI prints it as it
// prints its own), while this package stays free of any dependency on core.
const SKILLRL_ERROR = Symbol.for('skillrl.error');
const INVALID_ARGUMENT = Symbol.for('skillrl.error.invalid-argument');
const SYMBOL = Symbol.for('skillrl.error.scaffold');

/**
 * An argument of `create-skillrl` (or `skillrl init`) that cannot work: `argument` names it (`--template`,
 * `--name`, `<dir>`), the message says what is wrong and `fix` what to do instead.
 */
export class ScaffoldError extends Error {
  /** The same code as core's InvalidArgumentError: scripts reading `--json` errors see one code. */
  readonly code = 'SKILLRL_INVALID_ARGUMENT';
  readonly argument: string;
  readonly fix: string;

  constructor(argument: string, problem: string, fix: string, options: { cause?: unknown } = {}) {
    super(
      `Invalid ${argument}: ${problem}; ${fix}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    // Markers rather than instanceof: they survive two copies of the package side by side.
    Object.defineProperty(this, SKILLRL_ERROR, { value: true });
    Object.defineProperty(this, INVALID_ARGUMENT, { value: true });
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'ScaffoldError';
    this.argument = argument;
    this.fix = fix;
  }

  static isInstance(error: unknown): error is ScaffoldError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }

  toJSON(): { name: string; code: string; message: string; argument: string; fix: string } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      argument: this.argument,
      fix: this.fix,
    };
  }
}
