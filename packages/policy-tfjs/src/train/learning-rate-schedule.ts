import { InvalidArgumentError } from '@skillrl/core';

/**
 * How the learning rate moves over a run's updates (one `update` call = one training step, whatever its
 * mini-batches and epochs): a linear warm-up from lr/warmup to lr, then a decay to lr × minLrRatio by update
 * `updates`, held there after. The shapes are the ones verl (`lr_warmup_steps`, `warmup_style`,
 * `min_lr_ratio`) and Hugging Face's `get_*_schedule_with_warmup` offer.
 */
export interface LearningRateSchedule {
  /** The decay after the warm-up (default `cosine`); `constant` keeps lr after the warm-up. */
  decay?: 'cosine' | 'linear' | 'constant';
  /** Updates the schedule spans: the run's training steps (`internalize.steps`). */
  updates: number;
  /** Updates of linear warm-up (default 0). */
  warmup?: number;
  /** The final learning rate as a share of lr (default 0). */
  minLrRatio?: number;
}

/** Throws an `InvalidArgumentError` naming the field when `schedule` is not a usable schedule. */
export function checkLearningRateSchedule(schedule: LearningRateSchedule, path = 'lrSchedule'): void {
  const { updates, warmup = 0, minLrRatio = 0, decay = 'cosine' } = schedule;
  if (!Number.isInteger(updates) || updates < 1) {
    throw new InvalidArgumentError(
      `${path}.updates`,
      `expected an integer >= 1 (the run's training steps), got ${updates}`,
    );
  }
  if (!Number.isInteger(warmup) || warmup < 0 || warmup >= updates) {
    throw new InvalidArgumentError(
      `${path}.warmup`,
      `expected an integer from 0 to updates − 1 (${updates - 1}), got ${warmup}`,
    );
  }
  if (!(minLrRatio >= 0 && minLrRatio <= 1)) {
    throw new InvalidArgumentError(`${path}.minLrRatio`, `expected a number from 0 to 1, got ${minLrRatio}`);
  }
  if (decay !== 'cosine' && decay !== 'linear' && decay !== 'constant') {
    throw new InvalidArgumentError(
      `${path}.decay`,
      `expected 'cosine', 'linear' or 'constant', got ${String(decay)}`,
    );
  }
}

/**
 * The learning rate of update `index` (0-based). The warm-up's first update already moves (lr/warmup, not
 * 0: an update at lr 0 would spend a step's rollouts on nothing). The decay runs over the updates after the
 * warm-up and reaches lr × minLrRatio at the last one, `updates − 1`.
 */
export function learningRateAt(lr: number, schedule: LearningRateSchedule, index: number): number {
  const { updates, warmup = 0, minLrRatio = 0, decay = 'cosine' } = schedule;
  if (index < warmup) return (lr * (index + 1)) / warmup;
  if (decay === 'constant') return lr;
  const span = updates - 1 - warmup;
  const progress = span <= 0 ? 1 : Math.min(1, (index - warmup) / span);
  const shape = decay === 'cosine' ? 0.5 * (1 + Math.cos(Math.PI * progress)) : 1 - progress;
  return lr * (minLrRatio + (1 - minLrRatio) * shape);
}
