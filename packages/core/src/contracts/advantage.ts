/** One entry per sample; plain arrays or typed arrays. */
export interface AdvantageBatch {
  scores: ArrayLike<number>;
  /** Samples with the same id are compared with each other (a GRPO group). */
  groupIds: ArrayLike<string | number>;
  /** Task instance of each sample (Skill-R1, SKILLC gap per task). */
  instanceIds?: ArrayLike<string | number>;
  /** Skill-R1 generation of each sample. */
  generations?: ArrayLike<number>;
  /** SKILLC condition of each sample: 1 with the skill, 0 without. */
  conditions?: ArrayLike<number>;
  /** Skill type of each sample (per-family λ). */
  families?: ArrayLike<string>;
  /** Response lengths (OPO). */
  lengths?: ArrayLike<number>;
  /** Per-sample baseline rewards, e.g. a greedy rollout's (ReMax). */
  baselines?: ArrayLike<number>;
  /** Per-step rewards of each sample (REINFORCE++ with discounting). */
  stepRewards?: ArrayLike<ArrayLike<number>>;
  /** Outcome of each sample, when it differs from `score > 0` (shaped rewards). */
  successes?: ArrayLike<boolean | number>;
  /**
   * The method's λ for each sample, finite and >= 0, filled by the method step so that any estimator,
   * built-in or third-party, receives it (one that does not use it ignores it). SKILLC: the attribution
   * strength λ_k of the sample's skill type for this step (the curriculum's), 0 for a retired type or one
   * without a skill. Skill-R1: the weight of the inter-generation term A_inter (`evolve.lambda`).
   */
  lambdas?: ArrayLike<number>;
  /**
   * Skill-R1's previous-generation mean score per task instance, keyed by the instance id as a string (the
   * `instanceIds` entry, else the `groupIds` one): the mean of the generation before the earliest one in
   * the batch, i.e. s0's rollouts for generation 1. An instance without an entry has no previous mean.
   */
  previousMeans?: Record<string, number>;
}

export interface AdvantageResult {
  advantages: Float64Array;
  metrics: Record<string, number>;
}

export interface EstimateOptions {
  /**
   * Where to write the advantages: a `Float64Array` of the batch's length, reused across calls. A fresh
   * 80 MB output per step (10 M samples) costs more in page faults than the estimate itself on many
   * machines. Implementations may ignore it, so read the result's `advantages`, which is `out` when used.
   */
  out?: Float64Array;
}

/** A pure function from a batch to one advantage per sample, under a stable registry name. */
export interface AdvantageEstimator {
  readonly name: string;
  estimate(batch: AdvantageBatch, options?: EstimateOptions): AdvantageResult;
}

export type EstimatorFactory<Options = Record<string, unknown>> = (options?: Options) => AdvantageEstimator;
