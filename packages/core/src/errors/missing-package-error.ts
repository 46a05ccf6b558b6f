import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.missing-package');

function isPath(specifier: string): boolean {
  return /^(\.{1,2}(\/|$)|\/|file:)/.test(specifier);
}

/** A config named a component whose package is not installed (or cannot be found from the config file). */
export class MissingPackageError extends SkillrlError {
  readonly packageName: string;

  constructor(
    what: string,
    packageName: string,
    from: string,
    options: { cause?: unknown; detail?: string } = {},
  ) {
    super(
      'SKILLRL_MISSING_PACKAGE',
      isPath(packageName)
        ? `${what} names the module "${packageName}", which cannot be found from ${from}${options.detail ? ` (${options.detail})` : ''}. Fix the path: it is read relative to the config file.`
        : `${what} needs the package "${packageName}", which cannot be found from ${from}${options.detail ? ` (${options.detail})` : ''}. Install it (\`npm install ${packageName}\`) or fix the name.`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'MissingPackageError';
    this.packageName = packageName;
  }

  static override isInstance(error: unknown): error is MissingPackageError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
