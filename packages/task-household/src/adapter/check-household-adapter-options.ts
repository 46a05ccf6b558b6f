import {
  integerOption,
  numberOption,
  type OptionCheck,
  type OptionRules,
  optionCheck,
  stringOption,
} from '@skillrl/core';
import type { HouseholdAdapterOptions } from './create-household-adapter.js';

const RULES: OptionRules<HouseholdAdapterOptions> = {
  defaultSeed: numberOption('an integer', Number.isInteger),
  maxSteps: integerOption(1),
  placeSpelling: stringOption(['grammar', 'move', 'put', 'both']),
};

/** The household adapter's options (`createHouseholdAdapter`; `adapter: { name: household, options }`). */
export const HOUSEHOLD_ADAPTER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the household adapter's options, by path: unknown names (with the one meant), wrong types. */
export const checkHouseholdAdapterOptions: OptionCheck = optionCheck(
  RULES,
  'household adapter',
  '$.adapter.options',
);
