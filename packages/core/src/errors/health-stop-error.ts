import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.health-stop');

/** What tripped an error budget (`health`), as `--json` prints it: a run's and an evaluation's alike. */
export interface HealthStopDetails {
  kind: 'rollout' | 'editor';
  /**
   * `share`: too many errors among the last outcomes (`health.maxErrorShare` over `health.window`, once
   * `health.minSamples` are in); `first-batch`: every call of the first batch failed; `unit`: too many
   * errors among one unit's rollouts (a generation, step, validation or test; an evaluation is one unit,
   * `eval`), judged before the unit is scored; `all-failed`: every rollout ended in an error.
   */
  rule: 'share' | 'first-batch' | 'unit' | 'all-failed';
  /** The unit judged (`g2`, `s7`, `v10`, `test`, `eval`), for the `unit` rule. */
  unit?: string;
  errors: number;
  samples: number;
  share: number;
  /** `health.maxErrorShare` (for the share and unit rules). */
  threshold?: number;
  /** The most common error among those counted, and how often it occurred. */
  common: { error: string; count: number };
  /** Where the failing calls went (credentials redacted) and the config field that sets it. */
  endpoint: string;
  field?: string;
}

/**
 * Work stopped because its error budget (`health`) was spent: most calls to a model or an editor failed.
 * One class for a run (`RunHealthError`) and an evaluation (`EvaluationHealthError`); they differ in
 * their code and in where the work was (a run directory to resume, a target to evaluate again).
 */
export class HealthStopError<D extends HealthStopDetails = HealthStopDetails> extends SkillrlError {
  readonly details: D;

  constructor(code: string, name: string, message: string, details: D) {
    super(code, message);
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = name;
    this.details = details;
  }

  /** Any health stop, a run's or an evaluation's. */
  static override isInstance(error: unknown): error is HealthStopError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
