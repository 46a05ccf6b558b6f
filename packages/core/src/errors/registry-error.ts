import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.registry');

/** A name-based registry (estimators, losses, backends) was asked for an unknown name, or a taken one. */
export class RegistryError extends SkillrlError {
  readonly registry: string;
  readonly entry: string;

  constructor(
    registry: string,
    entry: string,
    reason: 'unknown' | 'duplicate',
    known: readonly string[] = [],
    /** What to do instead, appended to the message (e.g. how to name a package). */
    hint?: string,
  ) {
    const message =
      (reason === 'unknown'
        ? `Unknown ${registry} "${entry}". Registered: ${known.length ? known.join(', ') : '(none)'}.`
        : `A different ${registry} is already registered as "${entry}"; choose another name or unregister the first.`) +
      (hint ? ` ${hint}` : '');
    super(reason === 'unknown' ? 'SKILLRL_UNKNOWN_NAME' : 'SKILLRL_DUPLICATE_NAME', message);
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'RegistryError';
    this.registry = registry;
    this.entry = entry;
  }

  static override isInstance(error: unknown): error is RegistryError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
