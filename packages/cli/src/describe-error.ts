import {
  DamagedRecordsError,
  RunHealthError,
  SkillFormatError,
  SkillrlError,
  ValidationError,
  VoidSignalError,
} from '@skillrl/core';

/** An error as the CLI reports it: a message for people, and a JSON shape for `--json`. */
export function describeError(error: unknown): { message: string; json: Record<string, unknown> } {
  if (ValidationError.isInstance(error)) {
    return {
      message: error.message,
      json: { code: error.code, message: error.message, issues: error.issues },
    };
  }
  if (SkillFormatError.isInstance(error)) {
    return {
      message: error.message,
      json: { code: error.code, message: error.message, problems: error.problems },
    };
  }
  if (RunHealthError.isInstance(error) || VoidSignalError.isInstance(error)) {
    return { message: error.message, json: { code: error.code, message: error.message, ...error.details } };
  }
  if (DamagedRecordsError.isInstance(error)) {
    return {
      message: error.message,
      json: { code: error.code, message: error.message, dir: error.dir, records: error.records },
    };
  }
  if (SkillrlError.isInstance(error)) {
    return { message: error.message, json: { code: error.code, message: error.message } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message, json: { code: 'SKILLRL_ERROR', message } };
}
