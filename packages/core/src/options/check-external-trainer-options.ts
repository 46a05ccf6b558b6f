import type { ValidationIssue } from '../errors/validation-error.js';
import { checkOptions } from './check-options.js';

/**
 * The options of the `external` trainer: none. It updates no policy (the run's rollouts, with their
 * advantages, are trained on elsewhere from `skillrl export`), so any option would be silently ignored.
 */
export const EXTERNAL_TRAINER_OPTIONS: readonly string[] = [];

/** Every option given to the `external` trainer, each a problem: it takes none. */
export function checkExternalTrainerOptions(
  options: unknown,
  path = '$.internalize.trainer.options',
  _use?: unknown,
): ValidationIssue[] {
  return checkOptions(options, {}, path, 'external trainer').map((issue) => ({
    ...issue,
    message: `${issue.message} (it updates no policy: train elsewhere from \`skillrl export\`)`,
  }));
}
