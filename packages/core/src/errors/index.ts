export { InvalidArgumentError } from './invalid-argument-error.js';
export { MissingFieldError } from './missing-field-error.js';
export { RegistryError } from './registry-error.js';
export { RunStoreError } from './run-store-error.js';
export { SkillFormatError, type SkillProblem, type SkillRule } from './skill-format-error.js';
export { SkillrlError, type SkillrlErrorOptions } from './skillrl-error.js';
export { ValidationError, type ValidationIssue } from './validation-error.js';
