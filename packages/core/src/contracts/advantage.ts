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
  /**
   * Per-step rewards of each sample (REINFORCE++ with discounting, GiGPO's step returns). The method steps
   * fill them with core's `stepRewardsOf`: the environment's reward of each step, the last step carrying
   * whatever the verified score adds, so a sample's rewards sum to its score.
   */
  stepRewards?: ArrayLike<ArrayLike<number>>;
  /**
   * Per-step anchor-state key of each sample (GiGPO): the state each step acted from, as core's
   * `stateKeyOf` reads it (the environment's own key, else a hash of the observation). Steps of one group's
   * samples with equal keys acted from the same state and form a step group.
   */
  stepKeys?: ArrayLike<ArrayLike<string>>;
  /** Outcome of each sample, when it differs from `score > 0` (shaped rewards). */
  successes?: ArrayLike<boolean | number>;
  /**
   * SKILLC's attribution strength λ_k for each sample, finite and >= 0: the curriculum's λ_k of the sample's
   * skill type for this step, 0 for a retired type or one without a skill. Filled by the internalize step so
   * that any estimator, built-in or third-party, receives it (one that does not use it ignores it).
   */
  attributionStrengths?: ArrayLike<number>;
  /**
   * Skill-R1's weight λ of the inter-generation term A_inter for each sample, finite and >= 0 (`evolve.lambda`;
   * 0 for vanilla GRPO). Filled by the evolve step, for the same reason.
   */
  interGenerationWeights?: ArrayLike<number>;
  /**
   * Skill-R1's previous-generation mean score per task instance, keyed by the instance id as a string (the
   * `instanceIds` entry, else the `groupIds` one): the mean over all candidates of the generation before the
   * earliest one in the batch, i.e. s0's rollouts for generation 1. An instance without an entry has no
   * previous mean.
   */
  previousMeans?: Record<string, number>;
  /**
   * Skill-R1's carried-skill mean score per task instance, keyed as `previousMeans`: the mean reward of the
   * rollouts of the skill carried into the earliest generation in the batch (the previous generation's
   * carried candidate; s0's rollouts for generation 1). The baseline of `skill-r1`'s
   * `interBaseline: 'carried-skill'`.
   */
  carriedMeans?: Record<string, number>;
}

/**
 * What an estimator declares about the batch fields that replace its options: for each batch field, the
 * options it overrides when present (`{ attributionStrengths: ['lambda', 'lambdaByFamily'] }`). A method
 * step that always fills a field makes those options do nothing, so a runner that knows which fields its
 * method fills can reject a config that sets them, without treating any estimator specially by name.
 */
export type EstimatorBatchOverrides = {
  readonly [Field in keyof AdvantageBatch]?: readonly string[];
};

/**
 * A batch field a method step fills on every estimate, declared by the step itself (curriculum's
 * `SKILLC_STEP_BATCH_FIELDS`, skill-generator's `SKILL_R1_GENERATION_BATCH_FIELDS`): with an estimator's
 * `EstimatorBatchOverrides`, a runner refuses a config option the field replaces and says why.
 */
export interface MethodBatchField {
  readonly field: keyof AdvantageBatch;
  /** Where the step's values come from, in words for the message. */
  readonly source: string;
  /** What to set instead of an option the field replaces, when there is something. */
  readonly instead?: string;
}

export interface AdvantageResult {
  /** One advantage per sample: what a learner broadcasts over the sample's steps when there is no step-level one. */
  advantages: Float64Array;
  /**
   * Step-level credit (GiGPO): one advantage per step of each sample, for learners that train per step
   * (`TrainBatch.stepAdvantages`). Absent for estimators with sample-level credit only; an entry is absent
   * for a sample the estimator skipped.
   */
  stepAdvantages?: (Float64Array | undefined)[];
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

/** Makes an estimator from its options; may declare which batch fields replace some of them. */
export interface EstimatorFactory<Options = Record<string, unknown>> {
  (options?: Options): AdvantageEstimator;
  /** The batch fields that replace options of the estimators it makes (none declared: none replace any). */
  readonly batchOverrides?: EstimatorBatchOverrides;
}
