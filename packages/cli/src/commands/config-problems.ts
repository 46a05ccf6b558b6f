import { redactSecrets, ValidationError, type ValidationIssue } from '@skillrl/core';
import type { ConfigCheck } from '@skillrl/orchestrator';
import type { CliIo } from '../cli-io.js';
import { describeError } from '../describe-error.js';

/**
 * Every problem a config check found, as one validation's issues: the config's own, then each component's
 * (by its option paths where its check gives them, else by its role).
 */
export function problemsOf(checked: ConfigCheck): ValidationIssue[] {
  return [
    ...checked.issues,
    ...checked.components
      .filter((c) => c.error !== undefined)
      .flatMap((c) =>
        // A component's option check gives each problem by path: one line each.
        ValidationError.isInstance(c.error)
          ? c.error.issues
          : [{ path: c.role, message: describeError(c.error).message }],
      ),
  ];
}

/**
 * A config check's problems as `check` and `run` print them: the config's own issues, then each component's,
 * then what runs but will not do as it says (with problems: all of them at once, so one edit fixes each).
 */
export function printConfigProblems(io: CliIo, checked: ConfigCheck): void {
  if (checked.issues.length > 0) {
    io.err(`error: ${redactSecrets(describeError(new ValidationError('config', checked.issues)).message)}`);
  }
  for (const c of checked.components.filter((x) => x.error !== undefined)) {
    io.err(`error: ${c.role}: ${redactSecrets(describeError(c.error).message)}`);
  }
  if (problemsOf(checked).length > 0) for (const w of checked.warnings) io.err(`warning: ${w}`);
}
