import { redactSecrets } from '../secrets/redact-secrets.js';

const MARKER = 'skillrl.error';
const SYMBOL = Symbol.for(MARKER);

export interface SkillrlErrorOptions {
  cause?: unknown;
}

/**
 * Base of every error skillrl throws. Recognise it with `SkillrlError.isInstance(e)` rather than
 * `instanceof`: two copies of the package installed side by side each have their own class.
 * Messages pass through `redactSecrets`, so no API key can leak through an error.
 */
export class SkillrlError extends Error {
  /** Stable machine-readable code, e.g. `SKILLRL_VALIDATION`. */
  readonly code: string;

  constructor(code: string, message: string, options: SkillrlErrorOptions = {}) {
    super(redactSecrets(message), options.cause === undefined ? undefined : { cause: options.cause });
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'SkillrlError';
    this.code = code;
  }

  static isInstance(error: unknown): error is SkillrlError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }

  toJSON(): { name: string; code: string; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}
