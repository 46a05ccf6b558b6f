import { VoidSignalError, type VoidUnit } from '@skillrl/core';

/**
 * The no-signal guard of the health budget: each training unit reports whether its update carried any
 * signal; a void one is warned about as it ends, and `voidUnits` of them in a row stop the run. A unit seen
 * again (a resumed unit run a second time in this process) replaces its earlier verdict.
 */
export class SignalGuard {
  private readonly streak: VoidUnit[] = [];
  private trippedError: VoidSignalError | undefined;

  constructor(
    private readonly voidUnits: number,
    private readonly runDir: string,
    private readonly onWarning?: (message: string) => void,
  ) {}

  get tripped(): VoidSignalError | undefined {
    return this.trippedError;
  }

  /** Records a unit's verdict (`reason` when void); returns the error once the streak reaches `voidUnits`. */
  observe(unit: string, reason: string | undefined): VoidSignalError | undefined {
    if (this.trippedError) return this.trippedError;
    if (this.streak.at(-1)?.unit === unit) this.streak.pop();
    if (reason === undefined) {
      this.streak.length = 0;
      return undefined;
    }
    this.streak.push({ unit, reason });
    const off = this.voidUnits === 0;
    const limit = off ? '' : ` (${this.streak.length} of health.voidUnits ${this.voidUnits} in a row)`;
    this.onWarning?.(`${unit}: no learning signal: ${reason}${limit}`);
    if (off || this.streak.length < this.voidUnits) return undefined;
    const units = [...this.streak];
    const which = units.map((u) => `${u.unit} (${u.reason})`).join('; ');
    this.trippedError = new VoidSignalError(
      `the run stopped: ${units.length} training units in a row carried no learning signal (health.voidUnits ${this.voidUnits}): ${which}. ` +
        'Nothing was learned from them. Check that the verifier can tell rollouts apart and that the policy or editor sometimes succeeds; ' +
        'larger groups or dynamic sampling (internalize.dynamicSampling) help a sparse start. ' +
        `What was collected is kept in ${this.runDir}; continue with \`skillrl resume ${this.runDir}\` ` +
        '(add --set health.voidUnits=<n> to allow longer streaks, 0 to turn the guard off).',
      { rule: 'void-signal', units, voidUnits: this.voidUnits, runDir: this.runDir },
    );
    return this.trippedError;
  }
}
