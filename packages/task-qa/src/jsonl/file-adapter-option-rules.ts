import {
  booleanOption,
  codeOption,
  eitherOption,
  type OptionRule,
  recordOption,
  stringOption,
} from '@skillrl/core';

/**
 * The options every file-backed loader (GAIA, WebWalkerQA, any JSONL) reads the same way: its files, where
 * problems go, and whether they throw. Each loader's check spreads these into its own table.
 */
export const FILE_ADAPTER_OPTION_RULES = {
  path: eitherOption(
    'a JSONL path, or a map of split → path',
    stringOption(),
    recordOption(stringOption(), 'a map of split → path'),
  ),
  onProblems: codeOption('function', 'a function of the problems'),
  strict: booleanOption,
} as const satisfies Record<string, OptionRule>;
