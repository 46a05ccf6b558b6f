import {
  booleanOption,
  eitherOption,
  integerOption,
  nestedOptions,
  numberOption,
  type OptionCheck,
  type OptionRule,
  optionCheck,
  optionRule,
  recordOption,
  seedOption,
  stringListOption,
  stringOption,
} from '@skillrl/core';

// This file imports nothing of tfjs, not even its types: the package root (tfjs-free) exports it. The
// option names are tested against `resolveStepEditorOptions`, and the aggregation names against tensor-ops'.
const atLeast = (min: number) => numberOption(`a number >= ${min}`, (n) => n >= min);
const positive = numberOption('a number > 0', (n) => n > 0);

/** tensor-ops' `AGGREGATION_MODES` (a test keeps them equal). */
const AGGREGATIONS = [
  'token-mean',
  'seq-mean-token-mean',
  'seq-mean-token-sum',
  'seq-mean-token-sum-norm',
  'seq-mean-token-sum-norm-drgrpo',
];

const RULES: Readonly<Record<string, OptionRule>> = {
  // The orchestrator gives the adapter's `stepVocabulary()`.
  vocabulary: recordOption(stringListOption, 'procedure phrases per family'),
  seed: seedOption,
  maxSteps: integerOption(1),
  minSteps: integerOption(0),
  hiddenSize: integerOption(1),
  temperature: positive,
  keepPrior: atLeast(0),
  orderPrior: atLeast(0),
  lineBuckets: integerOption(1),
  base: stringOption(['best', 'current']),
  evidencePrior: atLeast(0),
  restrictToFamily: booleanOption,
  allowRepeats: booleanOption,
  goalBuckets: integerOption(1),
  failureBuckets: integerOption(1),
  historyWindow: integerOption(1),
  learningRate: positive,
  // A name in tensor-ops' loss registry, which a package may extend: resolved when the editor is built.
  loss: stringOption(),
  clipLow: numberOption('a number in (0, 1)', (n) => n > 0 && n < 1),
  clipHigh: positive,
  aggregation: stringOption(AGGREGATIONS),
  kl: eitherOption(
    'false or { kind, coef }',
    optionRule((v) => v === false, 'false'),
    nestedOptions({ kind: stringOption(), coef: atLeast(0) }, 'KL penalty'),
  ),
  entropyCoef: atLeast(0),
  maxGradNorm: positive,
  epochs: integerOption(1),
  name: stringOption(),
};

/** The step editor's options (`createStepEditor`; `evolve.generator: { name: step-editor, options }`). */
export const STEP_EDITOR_OPTIONS: readonly string[] = Object.keys(RULES);

/**
 * Every problem with the step editor's options, by path: unknown names (with the one meant) and wrong types.
 * Loads no tfjs. What needs tensor-ops' registries (a loss name, a KL kind) is checked when the editor is built.
 */
export const checkStepEditorOptions: OptionCheck = optionCheck(
  RULES,
  'step editor',
  '$.evolve.generator.options',
);
