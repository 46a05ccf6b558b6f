import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.missing-field');

/** A component needs an input field the caller did not provide (an estimator's batch field, say). */
export class MissingFieldError extends SkillrlError {
  readonly field: string;
  readonly component: string;

  constructor(component: string, field: string, hint?: string) {
    super(
      'SKILLRL_MISSING_FIELD',
      `${component} needs the field "${field}", which is missing${hint ? `: ${hint}` : '.'}`,
    );
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'MissingFieldError';
    this.field = field;
    this.component = component;
  }

  static override isInstance(error: unknown): error is MissingFieldError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
