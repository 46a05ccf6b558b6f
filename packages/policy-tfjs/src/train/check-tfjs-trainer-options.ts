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
  optionRule,
  stringOption,
} from '@skillrl/core';
import type { AggregationMode, BackendChoice } from '@skillrl/tensor-ops';
import type { TfjsTrainerOptions } from './create-tfjs-trainer.js';

// Tables of tensor-ops' names, typed against its unions (the compiler fails when one changes) and kept here
// because tensor-ops' own lists come with tfjs, which a check never loads.
const AGGREGATIONS = Object.keys({
  'token-mean': true,
  'seq-mean-token-mean': true,
  'seq-mean-token-sum': true,
  'seq-mean-token-sum-norm': true,
  'seq-mean-token-sum-norm-drgrpo': true,
} satisfies Record<AggregationMode, true>);
const BACKENDS = Object.keys({
  'tfjs-node-gpu': true,
  'tfjs-node': true,
  wasm: true,
  cpu: true,
} satisfies Record<BackendChoice, true>);

// A weight decay, whole or per weight.
const NON_NEGATIVE = numberOption('a number >= 0', (n) => n >= 0);

const RULES: OptionRules<TfjsTrainerOptions> = {
  // A name in tensor-ops' loss registry, which a package may extend: resolved when the trainer updates.
  loss: stringOption(),
  kl: nestedOptions(
    { kind: stringOption(), coef: numberOption('a number >= 0', (n) => n >= 0) },
    'KL penalty',
  ),
  aggregation: stringOption(AGGREGATIONS),
  lr: numberOption('a number > 0', (n) => n > 0),
  lrSchedule: nestedOptions(
    {
      decay: stringOption(['cosine', 'linear', 'constant']),
      updates: integerOption(1),
      warmup: integerOption(0),
      minLrRatio: numberOption('a number from 0 to 1', (n) => n >= 0 && n <= 1),
    },
    'learning-rate schedule',
  ),
  clipLow: numberOption(),
  clipHigh: numberOption(),
  dualClip: eitherOption(
    'a number or false',
    numberOption(),
    optionRule((v) => v === false, 'false'),
  ),
  maxGradNorm: numberOption('a number > 0', (n) => n > 0),
  weightDecay: eitherOption(
    'a number >= 0, or per weight { embedding, hiddenWeights, hiddenBias, query, actionBias, featureWeights, featureGate: number >= 0 }',
    NON_NEGATIVE,
    nestedOptions(
      {
        embedding: NON_NEGATIVE,
        hiddenWeights: NON_NEGATIVE,
        hiddenBias: NON_NEGATIVE,
        query: NON_NEGATIVE,
        actionBias: NON_NEGATIVE,
        featureWeights: NON_NEGATIVE,
        featureGate: NON_NEGATIVE,
      },
      'weight decay',
    ),
  ),
  entropyCoef: numberOption(),
  microBatchSize: integerOption(1),
  epochs: integerOption(1),
  miniBatches: integerOption(1),
  truncated: stringOption(['train', 'skip']),
  backend: stringOption(BACKENDS),
  reference: codeOption('object', 'reference weights (AgentParameters)'),
  trainPrior: booleanOption,
  gradients: stringOption(['hand', 'tfjs']),
};

/** The tfjs trainer's options (`createTfjsTrainer`; `internalize.trainer: { name: tfjs, options }`). */
export const TFJS_TRAINER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the tfjs trainer's options, by path: unknown names (with the one meant), wrong types. Loads no tfjs. */
export const checkTfjsTrainerOptions: OptionCheck = optionCheck(
  RULES,
  'tfjs trainer',
  '$.internalize.trainer.options',
);
