import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.missing-package');

/** A config named a component whose package is not installed (or cannot be found from the config file). */
export class MissingPackageError extends SkillrlError {
  readonly packageName: string;

  constructor(what: string, packageName: string, from: string, options: { cause?: unknown } = {}) {
    super(
      'SKILLRL_MISSING_PACKAGE',
      `${what} needs the package "${packageName}", which cannot be found from ${from}. Install it (e.g. \`pnpm add ${packageName}\`) or fix the name.`,
      options,
    );
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'MissingPackageError';
    this.packageName = packageName;
  }

  static override isInstance(error: unknown): error is MissingPackageError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
