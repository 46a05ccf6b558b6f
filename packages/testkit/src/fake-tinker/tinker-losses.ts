// Tinker's built-in losses, per token, as its documentation writes them (tinker-docs "Loss Functions":
// importance-sampling, ppo, cispo, dro, cross-entropy) and `LossFnType` in the SDK
// (thinking-machines-lab/tinker, src/tinker/types/loss_fn_type.py). Each sums over tokens ("loss:sum") and
// needs the derivative with respect to the learner's log-prob of the target token, which is all the fake's
// model needs to backpropagate. The ratio forms are those of @skillrl/tensor-ops (`vanilla` without the dual
// clip, `cispo`), with the same ±20 clamp on the log-ratio; a test checks the gradients against tensor-ops.

/** The loss names `forward_backward` accepts (`LossFnType`). */
export const TINKER_LOSSES = ['cross_entropy', 'importance_sampling', 'ppo', 'cispo', 'dro'] as const;
export type TinkerLossName = (typeof TINKER_LOSSES)[number];

/** `loss_fn_config` keys the fake reads, with Tinker's documented defaults. */
export interface TinkerLossConfig {
  /** ppo / cispo: lower bound of the ratio (default 0.8). */
  clip_low_threshold?: number;
  /** ppo / cispo: upper bound of the ratio (default 1.2). */
  clip_high_threshold?: number;
  /** dro: weight of the quadratic penalty (default 0.05). */
  beta?: number;
}

/** One target token: the learner's log-prob `logProb`, and what the datum gave for it. */
export interface TokenLossInput {
  logProb: number;
  /** `logprobs`: the sampler's log-prob (RL losses). */
  samplingLogProb: number;
  /** `advantages` (RL losses). */
  advantage: number;
  /** `weights` (cross_entropy). */
  weight: number;
}

const LOG_RATIO_CLAMP = 20;

/** The token's loss and ∂loss/∂logProb. */
export function tokenLoss(
  name: TinkerLossName,
  x: TokenLossInput,
  config: TinkerLossConfig = {},
): { loss: number; dLogProb: number } {
  const low = config.clip_low_threshold ?? 0.8;
  const high = config.clip_high_threshold ?? 1.2;
  const logRatio = Math.max(-LOG_RATIO_CLAMP, Math.min(LOG_RATIO_CLAMP, x.logProb - x.samplingLogProb));
  // Inside the clamp the ratio's derivative with respect to logProb is the ratio; outside it is 0.
  const inside = Math.abs(x.logProb - x.samplingLogProb) < LOG_RATIO_CLAMP;
  const ratio = Math.exp(logRatio);
  const dRatio = inside ? ratio : 0;
  const A = x.advantage;
  switch (name) {
    case 'cross_entropy':
      return { loss: -x.weight * x.logProb, dLogProb: -x.weight };
    case 'importance_sampling':
      return { loss: -ratio * A, dLogProb: -dRatio * A };
    case 'ppo': {
      const clipped = Math.max(low, Math.min(high, ratio));
      const unclippedObjective = ratio * A;
      const clippedObjective = clipped * A;
      // The smaller (more pessimistic) objective; the clipped one carries no gradient.
      if (unclippedObjective <= clippedObjective) return { loss: -unclippedObjective, dLogProb: -dRatio * A };
      return { loss: -clippedObjective, dLogProb: 0 };
    }
    case 'cispo': {
      const weight = Math.max(low, Math.min(high, ratio));
      // The clipped ratio is a stopped-gradient coefficient of log π · A.
      return { loss: -weight * x.logProb * A, dLogProb: -weight * A };
    }
    case 'dro': {
      const beta = config.beta ?? 0.05;
      const d = x.logProb - x.samplingLogProb;
      return { loss: -(x.logProb * A - 0.5 * beta * d * d), dLogProb: -(A - beta * d) };
    }
  }
}

/** The `loss_fn_inputs` each loss needs (cross_entropy: targets and weights; RL losses: logprobs, advantages). */
export function requiredLossInputs(name: TinkerLossName): string[] {
  return name === 'cross_entropy' ? ['target_tokens'] : ['target_tokens', 'logprobs', 'advantages'];
}
