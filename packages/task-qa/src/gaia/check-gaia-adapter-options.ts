import {
  booleanOption,
  codeOption,
  eitherOption,
  integerOption,
  nestedOptions,
  type OptionCheck,
  type OptionRules,
  objectOption,
  optionCheck,
  optionRule,
  stringOption,
} from '@skillrl/core';
import { FILE_ADAPTER_OPTION_RULES } from '../jsonl/file-adapter-option-rules.js';
import type { ReadFileToolOptions } from '../tools/files/create-read-file-tool.js';
import type { GaiaAdapterOptions, GaiaToolsOptions } from './create-gaia-adapter.js';
import type { GaiaVerifierOptions } from './gaia-verifier.js';

const TOOLS: OptionRules<GaiaToolsOptions> = {
  files: eitherOption(
    'true, false or { maxChars, maxBytes }',
    booleanOption,
    nestedOptions(
      {
        maxChars: integerOption(1),
        maxBytes: integerOption(1),
        attachmentOf: codeOption('function', 'a function of the task'),
      } satisfies OptionRules<Omit<ReadFileToolOptions, 'name'>>,
      'read_file tool',
    ),
  ),
  // The web backend's own options are checked when it is built (`createWebBackend`).
  web: objectOption,
  maxCalls: integerOption(0),
  maxChars: integerOption(1),
  results: integerOption(1),
};

const RULES: OptionRules<GaiaAdapterOptions> = {
  ...FILE_ADAPTER_OPTION_RULES,
  instructions: booleanOption,
  verifier: nestedOptions(
    {
      name: stringOption(),
      requireTemplate: booleanOption,
      extract: codeOption('function', 'a function of the trajectory'),
    } satisfies OptionRules<GaiaVerifierOptions>,
    'GAIA verifier',
  ),
  tools: eitherOption(
    'false or { files, web, maxCalls, maxChars, results }',
    optionRule((v) => v === false, 'false'),
    nestedOptions(TOOLS, 'GAIA tools'),
  ),
};

/** GAIA's adapter options (`createGaiaAdapter`; `adapter: { name: gaia, options }`). */
export const GAIA_ADAPTER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the gaia adapter's options, by path: unknown names (with the one meant), wrong types. */
export const checkGaiaAdapterOptions: OptionCheck = optionCheck(RULES, 'gaia adapter', '$.adapter.options', {
  path: "GAIA's metadata.jsonl (its folder holds the attachments), or a map of split → metadata.jsonl",
});
