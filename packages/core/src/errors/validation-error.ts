import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.validation');

export interface ValidationIssue {
  /** JSON path of the failing value, e.g. `$.steps[0].reward`. */
  path: string;
  /** What was expected there. */
  message: string;
}

/** A value failed its JSON Schema (or a config failed its checks). Lists every problem, by path. */
export class ValidationError extends SkillrlError {
  readonly kind: string;
  readonly issues: ValidationIssue[];

  constructor(kind: string, issues: ValidationIssue[], options: { cause?: unknown } = {}) {
    const lines = issues.map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n');
    super(
      'SKILLRL_VALIDATION',
      `Invalid ${kind} (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines}`,
      options,
    );
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'ValidationError';
    this.kind = kind;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is ValidationError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
