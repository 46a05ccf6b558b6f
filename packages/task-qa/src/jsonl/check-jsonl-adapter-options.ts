import {
  codeOption,
  eitherOption,
  nestedOptions,
  type OptionCheck,
  type OptionRule,
  type OptionRules,
  optionCheck,
  recordOption,
  stringListOption,
  stringOption,
} from '@skillrl/core';
import type { JsonlAdapterOptions, JsonlFields } from './create-jsonl-adapter.js';
import { FILE_ADAPTER_OPTION_RULES } from './file-adapter-option-rules.js';

/** A field name, or several tried in order. */
const FIELD: OptionRule = eitherOption('a field name or a list of them', stringOption(), stringListOption);

const FIELDS: OptionRules<JsonlFields> = {
  id: FIELD,
  question: FIELD,
  answer: FIELD,
  family: FIELD,
  split: FIELD,
  metadata: recordOption(FIELD, 'a map of metadata name → field'),
};

const RULES: OptionRules<JsonlAdapterOptions> = {
  ...FILE_ADAPTER_OPTION_RULES,
  fields: nestedOptions(FIELDS, 'qa-jsonl fields'),
  name: stringOption(),
  split: stringOption(),
  family: stringOption(),
  familyOf: codeOption('function', 'a function of the family value'),
  unlabeled: stringListOption,
  instructions: stringOption(),
  verifier: codeOption('function', 'a function of the task returning a verifier'),
  skills: codeOption('function', 'a function returning skills'),
};

/** The JSONL loader's options (`createJsonlAdapter`; `adapter: { name: qa-jsonl, options }`). */
export const JSONL_ADAPTER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the qa-jsonl adapter's options, by path: unknown names (with the one meant), wrong types. */
export const checkJsonlAdapterOptions: OptionCheck = optionCheck(
  RULES,
  'qa-jsonl adapter',
  '$.adapter.options',
  {
    path: 'a JSONL file of questions and answers, or a map of split → file',
  },
);
