import { type HealthStopDetails, HealthStopError } from '@skillrl/core';

/** What stopped an evaluation, as `skillrl eval --json` prints it: a run's details, for eval. */
export interface EvaluationHealthDetails extends HealthStopDetails {
  kind: 'rollout';
  /** `eval` for the `unit` rule: the evaluation is judged as one unit. */
  unit?: 'eval';
  /** What was evaluated: the config file or the run directory. */
  target: string;
}

const CODE = 'SKILLRL_EVAL_HEALTH';

/**
 * `skillrl eval` stopped because its episodes ended in errors past the config's error budget (`health`),
 * as `skillrl run` stops with `RunHealthError`: scores of failed model calls are not success rates. Exit
 * status 3. Nothing is written by an evaluation, so there is nothing to resume: evaluate again once the
 * cause is fixed.
 */
export class EvaluationHealthError extends HealthStopError<EvaluationHealthDetails> {
  constructor(message: string, details: EvaluationHealthDetails) {
    super(CODE, 'EvaluationHealthError', message, details);
  }

  static override isInstance(error: unknown): error is EvaluationHealthError {
    return HealthStopError.isInstance(error) && error.code === CODE;
  }
}
