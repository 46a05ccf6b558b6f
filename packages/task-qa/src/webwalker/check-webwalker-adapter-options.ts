import {
  booleanOption,
  codeOption,
  eitherOption,
  integerOption,
  nestedOptions,
  numberOption,
  type OptionCheck,
  type OptionRules,
  optionCheck,
  stringOption,
} from '@skillrl/core';
import { FILE_ADAPTER_OPTION_RULES } from '../jsonl/file-adapter-option-rules.js';
import type { WebWalkerAdapterOptions } from './create-webwalker-adapter.js';
import type { WebWalkerJudgeModel, WebWalkerVerifierOptions } from './webwalker-verifier.js';

const JUDGE: OptionRules<WebWalkerJudgeModel> = {
  model: stringOption(),
  baseURL: stringOption(),
  apiKey: stringOption(),
  client: codeOption('object', 'an OpenAI client'),
  timeoutMs: numberOption('a number of milliseconds > 0', (n) => n > 0),
  maxRetries: integerOption(0),
  onError: codeOption('function', 'a function of the error'),
  maxTokens: integerOption(1),
};

const RULES: OptionRules<WebWalkerAdapterOptions> = {
  ...FILE_ADAPTER_OPTION_RULES,
  verifier: nestedOptions(
    {
      name: stringOption(),
      judge: eitherOption(
        'a judge model { model, baseURL, ... } or a function',
        codeOption('function', 'a judge function'),
        nestedOptions(JUDGE, 'WebWalkerQA judge'),
      ),
      f1Threshold: numberOption('a number in [0, 1]', (n) => n >= 0 && n <= 1),
      extract: codeOption('function', 'a function of the trajectory'),
    } satisfies OptionRules<WebWalkerVerifierOptions>,
    'WebWalkerQA verifier',
  ),
  pages: eitherOption('a page cache path', stringOption(), codeOption('object', 'a page cache')),
  maxCalls: integerOption(0),
  maxChars: integerOption(1),
  startPage: booleanOption,
};

/** WebWalkerQA's adapter options (`createWebWalkerAdapter`; `adapter: { name: webwalker, options }`). */
export const WEBWALKER_ADAPTER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the webwalker adapter's options, by path: unknown names (with the one meant), wrong types. */
export const checkWebWalkerAdapterOptions: OptionCheck = optionCheck(
  RULES,
  'webwalker adapter',
  '$.adapter.options',
  {
    path: 'a WebWalkerQA JSONL file, or a map of split → file',
  },
);
