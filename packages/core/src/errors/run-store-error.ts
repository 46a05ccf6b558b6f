import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.run-store');

/** The run directory is unusable: a corrupt record in the middle of a stream, or an I/O failure. */
export class RunStoreError extends SkillrlError {
  readonly path: string;

  constructor(path: string, message: string, options: { cause?: unknown } = {}) {
    super('SKILLRL_RUN_STORE', `${path}: ${message}`, options);
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'RunStoreError';
    this.path = path;
  }

  static override isInstance(error: unknown): error is RunStoreError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
