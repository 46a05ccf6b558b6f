import {
  integerOption,
  nestedOptions,
  type OptionCheck,
  type OptionRules,
  optionCheck,
  stringListOption,
} from '@skillrl/core';
import type { QaAdapterOptions, QaSplit } from './create-qa-adapter.js';

const RULES: OptionRules<QaAdapterOptions> = {
  families: stringListOption,
  sizes: nestedOptions(
    {
      train: integerOption(0),
      valid_seen: integerOption(0),
      valid_unseen: integerOption(0),
    } satisfies OptionRules<Record<QaSplit, number>>,
    'qa adapter sizes',
  ),
};

/** The generated-QA adapter's options (`createQaAdapter`; `adapter: { name: qa, options }`). */
export const QA_ADAPTER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the qa adapter's options, by path: unknown names (with the one meant), wrong types. */
export const checkQaAdapterOptions: OptionCheck = optionCheck(RULES, 'qa adapter', '$.adapter.options');
