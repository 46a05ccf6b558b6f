import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.serve-outside-dir');

/**
 * A path asked of `skillrl serve` leads outside the folder it serves (`..`, an absolute path, a symlink that
 * points out): refused, since the server reads only under that folder.
 */
export class OutsideDirError extends SkillrlError {
  readonly path: string;

  constructor(path: string, reason: string) {
    super(
      'SKILLRL_SERVE_OUTSIDE_DIR',
      `"${path}" is refused: ${reason}; skillrl serve reads only under its folder`,
    );
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'OutsideDirError';
    this.path = path;
  }

  static override isInstance(error: unknown): error is OutsideDirError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
