// The stops and refusals of a run and of component resolution, one home so that every package (the CLI's
// error descriptions, eval, serve) recognises them without the orchestrator.
export { DamagedRecordsError } from './damaged-records-error.js';
export { type HealthStopDetails, HealthStopError } from './health-stop-error.js';
export { InvalidArgumentError } from './invalid-argument-error.js';
export { MissingFieldError } from './missing-field-error.js';
export { MissingPackageError } from './missing-package-error.js';
export { PluginShapeError } from './plugin-shape-error.js';
export { RegistryError } from './registry-error.js';
export { type HealthKind, type RunHealthDetails, RunHealthError } from './run-health-error.js';
export { RunStoreError } from './run-store-error.js';
export { SkillFormatError, type SkillProblem, type SkillRule } from './skill-format-error.js';
export { SkillrlError, type SkillrlErrorOptions } from './skillrl-error.js';
export { ValidationError, type ValidationIssue } from './validation-error.js';
export { type VoidSignalDetails, VoidSignalError, type VoidUnit } from './void-signal-error.js';
