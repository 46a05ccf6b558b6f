import { InvalidArgumentError } from '@skillrl/core';

/** The network's shape and the skill-reading prior's starting strengths. Saved with every checkpoint. */
export interface AgentConfig {
  /** Word-embedding width (default 16). */
  dim: number;
  /** Words of the latest observation the scorer reads, from its end (default 48). */
  observationWords: number;
  /** Words of the goal the scorer reads (default 24). */
  goalWords: number;
  /** Earlier actions the scorer reads in order-sensitive detail (default 3). */
  historyActions: number;
  /**
   * Earlier actions the scorer's memory reads as one bag of words (default 50, a whole episode): what was
   * taken, heated or opened many steps ago, which the last three actions no longer show. An LLM policy
   * sees its whole history; 0 turns the memory off.
   */
  memoryActions: number;
  /**
   * Width of the hidden layer between the context (goal, observation, recent actions, memory) and the
   * candidate scorer (default 32). Without it the scorer is additive over those blocks: it cannot express
   * "go to the target once the object is hot", a goal × progress interaction.
   */
  hidden: number;
  /** Initial prior scale β: how many logits a fully matching skill clause is worth (default 8). */
  priorScale: number;
  /** Initial attention sharpness τ over skill clauses (default 4). */
  priorSharpness: number;
  /** Initial penalty κ on clauses earlier actions already matched (default 6). */
  priorDone: number;
  /** Initial penalty μ per numbered step a clause lies ahead of the current one, so the current step matters most (default 3). */
  priorRank: number;
  /**
   * Initial weight of the "taken before" feature (0 to 1 as an action was taken 0 to 3 times): a novelty
   * bias that applies with and without a skill (default 0: the untrained scorer is uniform).
   */
  repeatBias: number;
  /**
   * Whether a candidate carries the feature "share of its words in earlier actions", with one context-free
   * weight (default false: the feature is 0). Off by default since 0.2.0 (issue 38): under a sparse start a few
   * lucky episodes set that weight's sign, and a run that learns it negative avoids every action that builds
   * on what it already did (taking what it went to, putting what it took) and wanders until the step limit;
   * more training does not undo it. The memory block still reads the earlier actions, through the hidden
   * layer. Checkpoints written before the option existed load with it on, as they were trained.
   */
  earlierActionsFeature: boolean;
  /** Verbs folded together before matching actions to skill text (default move/place → put, find/search → take). */
  synonyms: Record<string, string>;
  /**
   * Verbs that undo each other: an action whose verb is the inverse of an earlier action's, on the same
   * arguments ("take apple 1 from fridge 1" after putting it there), gets no credit from the skill.
   */
  inverses: Record<string, string>;
}

export const DEFAULT_AGENT_CONFIG: AgentConfig = {
  dim: 16,
  observationWords: 48,
  goalWords: 24,
  historyActions: 3,
  memoryActions: 50,
  hidden: 32,
  priorScale: 8,
  priorSharpness: 4,
  priorDone: 6,
  priorRank: 3,
  repeatBias: 0,
  earlierActionsFeature: false,
  synonyms: { move: 'put', place: 'put', find: 'take', search: 'take' },
  inverses: { take: 'put', put: 'take', open: 'close', close: 'open' },
};

/**
 * Features of a candidate the scorer weighs beside its embedding (see `encodeDecision`): the share of its
 * words in the goal, in the observation, how often it was taken, whether it was the last action, the share
 * of its words the goal names and no earlier action touched yet ("what is left to do": an LLM reads that
 * off its history), and the share in earlier actions (0 unless `earlierActionsFeature` is on).
 */
export const FEATURE_COUNT = 6;
/** Context blocks the hidden layer reads: goal, observation, recent actions, memory. */
export const CONTEXT_BLOCKS = 4;
/** Index of the "taken before" feature. */
export const REPEAT_FEATURE = 2;

export function resolveAgentConfig(partial: Partial<AgentConfig> = {}): AgentConfig {
  const config: AgentConfig = { ...DEFAULT_AGENT_CONFIG, ...partial };
  for (const key of ['dim', 'observationWords', 'goalWords', 'historyActions', 'hidden'] as const) {
    const v = config[key];
    if (!Number.isInteger(v) || v < 1) {
      throw new InvalidArgumentError(`options.config.${key}`, `expected an integer >= 1, got ${v}`);
    }
  }
  if (!Number.isInteger(config.memoryActions) || config.memoryActions < 0) {
    throw new InvalidArgumentError(
      'options.config.memoryActions',
      `expected an integer >= 0, got ${config.memoryActions}`,
    );
  }
  for (const key of ['priorScale', 'priorSharpness', 'priorDone', 'priorRank', 'repeatBias'] as const) {
    if (!Number.isFinite(config[key])) {
      throw new InvalidArgumentError(`options.config.${key}`, `expected a finite number, got ${config[key]}`);
    }
  }
  if (typeof config.earlierActionsFeature !== 'boolean') {
    throw new InvalidArgumentError(
      'options.config.earlierActionsFeature',
      `expected true or false, got ${String(config.earlierActionsFeature)}`,
    );
  }
  return config;
}

/**
 * Scales of the hidden state's two read-outs: q = h·W_q/√H and θ = θ₀ + h·W_g/H. Adam moves every weight by
 * about lr a step whatever its gradient, so without them one step would move a logit H times further
 * through the H hidden units than through a single weight (measured: lr 0.03 collapsed the policy to 0 %
 * success in 40 steps). With them, a step moves the scores about as far as in the network without the
 * hidden layer, and the learning rates tuned for it carry over.
 */
export function hiddenScales(hidden: number): { query: number; gate: number } {
  return { query: 1 / Math.sqrt(hidden), gate: 1 / hidden };
}
