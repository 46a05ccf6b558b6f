/**
 * The error budget of a run (`health` in the config): when model calls fail, the run stops with a message
 * instead of "completing" on rewards of zero. Two kinds of calls are watched separately: rollouts (an
 * episode that ended with `error`) and editor calls (an evolve editor's `propose` that threw).
 */
export interface HealthOptions {
  /**
   * Stop when more than this share of the last `window` outcomes of a kind ended in an error (judged once
   * `minSamples` of them are in). Default 0.5; 1 turns the rule off.
   */
  maxErrorShare?: number;
  /** Outcomes of a kind needed before the share is judged. Default 16. */
  minSamples?: number;
  /** The share is taken over the last this many outcomes of a kind. Default 200. */
  window?: number;
  /**
   * `fail-if-all-error` (default): stop as soon as the first batch of a kind in this process (its first
   * rollouts; an evolve generation's editor calls) has finished with every call in error, however small it
   * is. `off`: only the share rule.
   */
  firstBatch?: 'fail-if-all-error' | 'off';
  /**
   * The no-signal guard: stop (exit 3) when this many training units in a row (steps, generations) carried no
   * learning signal — every group zero-variance, every candidate identical to its parent, nothing left to
   * learn from, or an update of zero norm. Each void unit is warned about as it ends. Counted in this
   * process (a resume starts afresh). Default 3; 0 turns the guard off.
   */
  voidUnits?: number;
}

export type ResolvedHealthOptions = Required<HealthOptions>;

export const HEALTH_DEFAULTS: ResolvedHealthOptions = {
  maxErrorShare: 0.5,
  minSamples: 16,
  window: 200,
  firstBatch: 'fail-if-all-error',
  voidUnits: 3,
};

export function resolveHealthOptions(options: HealthOptions | undefined): ResolvedHealthOptions {
  return { ...HEALTH_DEFAULTS, ...(options ?? {}) };
}

/** The `health` section of the config schema. */
export const healthSchema = {
  type: 'object',
  description:
    'The error budget: the run stops (exit 3) when too many rollouts or editor calls end in an error, or when voidUnits training units in a row carry no learning signal.',
  properties: {
    maxErrorShare: { type: 'number', minimum: 0, maximum: 1 },
    minSamples: { type: 'integer', minimum: 1 },
    window: { type: 'integer', minimum: 1 },
    firstBatch: { enum: ['fail-if-all-error', 'off'] },
    voidUnits: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;
