import { InvalidArgumentError } from '@skillrl/core';

/** The network's shape and the skill-reading prior's starting strengths. Saved with every checkpoint. */
export interface AgentConfig {
  /** Word-embedding width (default 16). */
  dim: number;
  /** Words of the latest observation the scorer reads, from its end (default 48). */
  observationWords: number;
  /** Words of the goal the scorer reads (default 24). */
  goalWords: number;
  /** Earlier actions the scorer reads (default 3). */
  historyActions: number;
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
  priorScale: 8,
  priorSharpness: 4,
  priorDone: 6,
  priorRank: 3,
  repeatBias: 0,
  synonyms: { move: 'put', place: 'put', find: 'take', search: 'take' },
  inverses: { take: 'put', put: 'take', open: 'close', close: 'open' },
};

/** Features of a candidate the scorer weighs beside its embedding (see `encodeDecision`). */
export const FEATURE_COUNT = 4;
/** Index of the "taken before" feature. */
export const REPEAT_FEATURE = 2;

export function resolveAgentConfig(partial: Partial<AgentConfig> = {}): AgentConfig {
  const config: AgentConfig = { ...DEFAULT_AGENT_CONFIG, ...partial };
  for (const key of ['dim', 'observationWords', 'goalWords', 'historyActions'] as const) {
    const v = config[key];
    if (!Number.isInteger(v) || v < 1) {
      throw new InvalidArgumentError(`options.config.${key}`, `expected an integer >= 1, got ${v}`);
    }
  }
  for (const key of ['priorScale', 'priorSharpness', 'priorDone', 'priorRank', 'repeatBias'] as const) {
    if (!Number.isFinite(config[key])) {
      throw new InvalidArgumentError(`options.config.${key}`, `expected a finite number, got ${config[key]}`);
    }
  }
  return config;
}
