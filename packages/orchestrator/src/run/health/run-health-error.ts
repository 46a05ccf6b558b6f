import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.run-health');

export type HealthKind = 'rollout' | 'editor';

/** What tripped the error budget, as `--json` prints it. */
export interface RunHealthDetails {
  kind: HealthKind;
  /**
   * `share`: too many errors among the last outcomes; `first-batch`: every call of the first batch failed;
   * `unit`: too many errors among one unit's rollouts (a generation, step, validation or test), judged before
   * the unit is scored, checkpointed or carried; `all-failed`: every rollout of the run ended in an error.
   */
  rule: 'share' | 'first-batch' | 'unit' | 'all-failed';
  /** The unit judged (`g2`, `s7`, `v10`, `test`), for the `unit` rule. */
  unit?: string;
  errors: number;
  samples: number;
  share: number;
  /** `health.maxErrorShare` (for the share rule). */
  threshold?: number;
  /** The most common error among those counted, and how often it occurred. */
  common: { error: string; count: number };
  /** Where the failing calls went (credentials redacted) and the config field that sets it. */
  endpoint: string;
  field?: string;
  runDir: string;
}

/**
 * The run stopped because its error budget (`health`) was spent: most calls to a model or an editor
 * failed. Everything collected is on disk; `skillrl resume <dir>` continues once the cause is fixed.
 */
export class RunHealthError extends SkillrlError {
  readonly details: RunHealthDetails;

  constructor(message: string, details: RunHealthDetails) {
    super('SKILLRL_RUN_HEALTH', message);
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'RunHealthError';
    this.details = details;
  }

  static override isInstance(error: unknown): error is RunHealthError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
