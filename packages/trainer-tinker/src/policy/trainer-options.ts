import { InvalidArgumentError } from '@skillrl/core';
import type { LossFnType } from '../client/tinker-types.js';
import type { TinkerTrainOptions } from './tinker-policy.js';

/**
 * The policy-gradient losses Tinker computes server-side (`LossFnType`, less `cross_entropy`). skyrl-tx accepts
 * all but `dro` (its `loss_fn` list: cross_entropy, importance_sampling, ppo, gspo, cispo, ppo_critic, dppo).
 */
export const TINKER_RL_LOSSES = ['importance_sampling', 'ppo', 'cispo', 'dro'] as const;
export type TinkerRlLoss = (typeof TINKER_RL_LOSSES)[number];

export interface TinkerTrainerOptions {
  /** Default `importance_sampling` (REINFORCE with the sampler's log-probs as the correction). */
  loss?: TinkerRlLoss;
  /** ppo / cispo: the ratio's clip range (Tinker's defaults 0.8 / 1.2); dro: `beta`. */
  clipLowThreshold?: number;
  clipHighThreshold?: number;
  beta?: number;
  /** Adam's learning rate. Default 4e-5 (a LoRA RL rate of the Tinker cookbook's size). */
  learningRate?: number;
  /** Adam (AdamW) parameters; defaults are the SDK's `AdamParams`: 0.9, 0.95, 1e-12, 0, 0 (no clipping). */
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
  gradClipNorm?: number;
  /** Datums per `forward_backward` request; all of an update's are accumulated before its step. Default 128. */
  chunkSize?: number;
  /**
   * Divide each trajectory's per-token advantages by its number of completion tokens (all its turns), so
   * every trajectory weighs the same in the loss whatever its length. Default false: a token sum, as Tinker's
   * losses and the Tinker cookbook compute it, where a long episode weighs as many short ones.
   */
  normalizePerTrajectory?: boolean;
  /**
   * The coefficient of a KL penalty to the base model, folded into the per-token advantages as the Tinker
   * cookbook does (`incorporate_kl_penalty`): the base model's log-probs of the sampled tokens from one
   * prompt-logprobs pass each, then `adv_t += coef · (mean_kl − kl_t)` with `kl_t = logp_sampler − logp_base`.
   * Default 0 (off).
   */
  klPenaltyCoef?: number;
}

/** One update's settings: how its advantages are shaped, and what `TinkerPolicy.train` sends. */
export interface TinkerUpdateSettings extends TinkerTrainOptions {
  normalizePerTrajectory: boolean;
  klPenaltyCoef: number;
}

/** The keys of `TinkerTrainerOptions`: what a flat options object gives the trainer. */
export const TINKER_TRAINER_OPTION_KEYS: readonly (keyof TinkerTrainerOptions)[] = [
  'loss',
  'clipLowThreshold',
  'clipHighThreshold',
  'beta',
  'learningRate',
  'beta1',
  'beta2',
  'eps',
  'weightDecay',
  'gradClipNorm',
  'chunkSize',
  'normalizePerTrajectory',
  'klPenaltyCoef',
];
const KNOWN = new Set<string>(TINKER_TRAINER_OPTION_KEYS);

function num(path: string, value: unknown, ok: (v: number) => boolean, want: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    throw new InvalidArgumentError(path, `expected ${want}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Checks trainer options (every problem names its option) and turns them into one update's settings. */
export function resolveTrainerOptions(
  options: TinkerTrainerOptions = {},
  path = 'options',
): TinkerUpdateSettings {
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      throw new InvalidArgumentError(
        `${path}.${key}`,
        `is not a tinker trainer option (${[...KNOWN].join(', ')})`,
      );
  }
  const loss = (options.loss ?? 'importance_sampling') as LossFnType;
  if (!TINKER_RL_LOSSES.includes(loss as TinkerRlLoss)) {
    throw new InvalidArgumentError(
      `${path}.loss`,
      `expected one of ${TINKER_RL_LOSSES.join(', ')}, got ${JSON.stringify(options.loss)}`,
    );
  }
  const low = num(
    `${path}.clipLowThreshold`,
    options.clipLowThreshold,
    (v) => v > 0 && v <= 1,
    'a number in (0, 1]',
  );
  const high = num(`${path}.clipHighThreshold`, options.clipHighThreshold, (v) => v >= 1, 'a number >= 1');
  const beta = num(`${path}.beta`, options.beta, (v) => v >= 0, 'a number >= 0');
  // Each loss reads its own `loss_fn_config` keys; skyrl-tx refuses any other (`_ALLOWED_KEYS_BY_LOSS_FN`).
  const misplaced = lossConfigMismatch(loss, options);
  if (misplaced) throw new InvalidArgumentError(`${path}.${misplaced.key}`, misplaced.message);
  const lossConfig: Record<string, number> = {};
  if (low !== undefined) lossConfig.clip_low_threshold = low;
  if (high !== undefined) lossConfig.clip_high_threshold = high;
  if (beta !== undefined) lossConfig.beta = beta;
  const chunkSize =
    num(`${path}.chunkSize`, options.chunkSize, (v) => Number.isInteger(v) && v >= 1, 'an integer >= 1') ??
    128;
  const adam = {
    learning_rate: num(`${path}.learningRate`, options.learningRate, (v) => v > 0, 'a number > 0') ?? 4e-5,
    ...optional(
      'beta1',
      num(`${path}.beta1`, options.beta1, (v) => v >= 0 && v < 1, 'a number in [0, 1)'),
    ),
    ...optional(
      'beta2',
      num(`${path}.beta2`, options.beta2, (v) => v >= 0 && v < 1, 'a number in [0, 1)'),
    ),
    ...optional(
      'eps',
      num(`${path}.eps`, options.eps, (v) => v > 0, 'a number > 0'),
    ),
    ...optional(
      'weight_decay',
      num(`${path}.weightDecay`, options.weightDecay, (v) => v >= 0, 'a number >= 0'),
    ),
    ...optional(
      'grad_clip_norm',
      num(`${path}.gradClipNorm`, options.gradClipNorm, (v) => v >= 0, 'a number >= 0'),
    ),
  };
  if (options.normalizePerTrajectory !== undefined && typeof options.normalizePerTrajectory !== 'boolean') {
    throw new InvalidArgumentError(
      `${path}.normalizePerTrajectory`,
      `expected true or false, got ${JSON.stringify(options.normalizePerTrajectory)}`,
    );
  }
  const klPenaltyCoef =
    num(`${path}.klPenaltyCoef`, options.klPenaltyCoef, (v) => v >= 0, 'a number >= 0 (0: no KL penalty)') ??
    0;
  return {
    loss,
    ...(Object.keys(lossConfig).length > 0 ? { lossConfig } : {}),
    adam,
    chunkSize,
    normalizePerTrajectory: options.normalizePerTrajectory ?? false,
    klPenaltyCoef,
  };
}

/** A loss option given for a loss that does not read it (`clip*` for ppo and cispo only, `beta` for dro only). */
export function lossConfigMismatch(
  loss: unknown,
  options: { clipLowThreshold?: unknown; clipHighThreshold?: unknown; beta?: unknown },
): { key: string; message: string } | undefined {
  const name = JSON.stringify(loss ?? 'importance_sampling');
  for (const key of ['clipLowThreshold', 'clipHighThreshold'] as const) {
    if (options[key] !== undefined && loss !== 'ppo' && loss !== 'cispo')
      return {
        key,
        message: `is read by the ppo and cispo losses only, not ${name}: drop it or change loss`,
      };
  }
  if (options.beta !== undefined && loss !== 'dro')
    return { key: 'beta', message: `is read by the dro loss only, not ${name}: drop it or change loss` };
  return undefined;
}

function optional(key: string, value: number | undefined): Record<string, number> {
  return value === undefined ? {} : { [key]: value };
}
