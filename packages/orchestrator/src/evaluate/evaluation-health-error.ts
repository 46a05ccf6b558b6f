import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.evaluation-health');

/** What stopped an evaluation, as `skillrl eval --json` prints it (the run's `RunHealthDetails`, for eval). */
export interface EvaluationHealthDetails {
  kind: 'rollout';
  /**
   * `share`: too many errors among the last episodes (`health.maxErrorShare` over `health.window`, once
   * `health.minSamples` are in); `first-batch`: every episode ended in an error (`health.firstBatch`);
   * `unit`: more than `health.maxErrorShare` of all the evaluation's episodes ended in an error;
   * `all-failed`: every episode ended in an error while `health` allowed it (an evaluation without a
   * single result is never reported as success rates).
   */
  rule: 'share' | 'first-batch' | 'unit' | 'all-failed';
  /** `eval` for the `unit` rule: the evaluation is judged as one unit. */
  unit?: 'eval';
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
  /** What was evaluated: the config file or the run directory. */
  target: string;
}

/**
 * `skillrl eval` stopped because its episodes ended in errors past the config's error budget (`health`),
 * as `skillrl run` stops with `RunHealthError`: scores of failed model calls are not success rates. Exit
 * status 3. Nothing is written by an evaluation, so there is nothing to resume: evaluate again once the
 * cause is fixed.
 */
export class EvaluationHealthError extends SkillrlError {
  readonly details: EvaluationHealthDetails;

  constructor(message: string, details: EvaluationHealthDetails) {
    super('SKILLRL_EVAL_HEALTH', message);
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'EvaluationHealthError';
    this.details = details;
  }

  static override isInstance(error: unknown): error is EvaluationHealthError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
