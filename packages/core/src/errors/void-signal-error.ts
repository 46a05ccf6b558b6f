import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.void-signal');

/** One training unit whose update carried no learning signal, and why. */
export interface VoidUnit {
  /** The unit: `s7` (a SKILLC step), `g3` (a Skill-R1 generation). */
  unit: string;
  reason: string;
}

/** What stopped the run, as `--json` prints it. */
export interface VoidSignalDetails {
  rule: 'void-signal';
  /** The void units in a row, oldest first. */
  units: VoidUnit[];
  /** `health.voidUnits`. */
  voidUnits: number;
  runDir: string;
}

/**
 * The run stopped because `health.voidUnits` training units in a row carried no learning signal: the run was
 * learning nothing (a verifier that scores everything alike, an editor that returns its input, a policy that
 * never succeeds), so going on would spend the budget for no update. Exit 3, like the error budget: the run
 * directory is consistent and `skillrl resume` continues it.
 */
export class VoidSignalError extends SkillrlError {
  readonly details: VoidSignalDetails;

  constructor(message: string, details: VoidSignalDetails) {
    super('SKILLRL_VOID_SIGNAL', message);
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'VoidSignalError';
    this.details = details;
  }

  static override isInstance(error: unknown): error is VoidSignalError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
