export { checkExternalTrainerOptions, EXTERNAL_TRAINER_OPTIONS } from './check-external-trainer-options.js';
export {
  checkOptions,
  nestedOptions,
  type OptionCheck,
  optionCheck,
  suggestOption,
  throwOnOptionIssues,
  unknownOptionIssue,
} from './check-options.js';
export {
  anyOption,
  booleanOption,
  codeOption,
  eitherOption,
  integerOption,
  numberOption,
  type OptionRule,
  type OptionRules,
  objectOption,
  optionRule,
  recordOption,
  seedOption,
  stringListOption,
  stringOption,
} from './option-rule.js';
