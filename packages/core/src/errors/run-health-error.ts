import { type HealthStopDetails, HealthStopError } from './health-stop-error.js';

export type HealthKind = HealthStopDetails['kind'];

/** What tripped a run's error budget, as `--json` prints it. */
export interface RunHealthDetails extends HealthStopDetails {
  runDir: string;
}

const CODE = 'SKILLRL_RUN_HEALTH';

/**
 * The run stopped because its error budget (`health`) was spent: most calls to a model or an editor
 * failed. Everything collected is on disk; `skillrl resume <dir>` continues once the cause is fixed.
 */
export class RunHealthError extends HealthStopError<RunHealthDetails> {
  constructor(message: string, details: RunHealthDetails) {
    super(CODE, 'RunHealthError', message, details);
  }

  static override isInstance(error: unknown): error is RunHealthError {
    return HealthStopError.isInstance(error) && error.code === CODE;
  }
}
