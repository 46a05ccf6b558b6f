import type { CurriculumController, CurriculumState, JsonValue, ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { attributionRatio } from './attribution-ratio.js';
import { checkFamilies, checkNumber } from './check-options.js';
import { checkValidationShape, type FamilyReading, readFamilyValidation } from './read-validation.js';

/**
 * SKILLC's internalization-aware curriculum. PAPERS.md: the signals (a smoothed paired-validation gap per
 * skill type, started from the first measurement, taken before training) are the paper's; the schedules,
 * the evidence rule and the defaults of ρ_min, ρ_max, τ, minEvidence and gapFloor (no published values) are
 * ours.
 *
 * The loop validates at step 0, before any update (`validationDue(0)` is true), and passes that validation
 * to `observe({ step: 0, ... })`: it is Δ̄_first, the untrained policy's gap. Then every d steps.
 */
export interface SkillcCurriculumOptions {
  /** The skill types (task families) the curriculum tracks. */
  families: string[];
  /** Base attribution strength λ; λ_k = λ · clip(Δ̄_t(k) / max(Δ̄_first(k), gapFloor), 0, 1). Default 1. */
  lambda?: number;
  /** Smoothing factor α of Δ̄_t = α·Δ̄_{t−1} + (1 − α)·Δ_val. Default 0.9. */
  alpha?: number;
  /** Validate every d training steps. Default 10. */
  d?: number;
  /** Retire a type for good once Δ̄_t(k) < τ (and the evidence rule holds). Default 0.02 (ours). */
  tau?: number;
  /**
   * Evidence before retirement: a type retires only once the validations it was measured in add up to at
   * least this many episodes on EACH side (with and without the skill), and never on its first one.
   * A 0/8 vs 0/8 validation says nothing; pick and pick2 once retired at step 10 on exactly that.
   * Default 16 (ours: two validations of 8 episodes per side). 0 leaves only the "not the first" rule.
   */
  minEvidence?: number;
  /**
   * Floor of the reference gap in r = clip(Δ̄_t / max(Δ̄_first, gapFloor), 0, 1), > 0. Keeps λ_k and ρ_k
   * continuous in Δ̄_t and Δ̄_first, also when Δ̄_first ≤ 0. Default 0.125 (ours): one episode in a validation
   * side of 8 (the paper's group size), the smallest non-zero gap such a validation shows; a first gap below
   * it is below the measurement's resolution, so the ratio is taken against the floor instead.
   */
  gapFloor?: number;
  /** Share of z = 1 rollouts once a skill is (nearly) internalized. Default 0.125 (ours: 1 of a group of 8). */
  rhoMin?: number;
  /**
   * Share of z = 1 rollouts while the skill is fully needed. Default 0.25 (ours: 2 of a group of 8; measured
   * on household with the skill-reading agent, 0.25 gave the skill-free policy more to learn from than an
   * even split: 27.8 % against 25.0 % without skills on the held-out test, seeds 1–3 and 1–2; see the
   * policy-tfjs README).
   */
  rhoMax?: number;
  /** Ablation "fixed ρ": use this share for every active type instead of the schedule. */
  fixedRho?: number;
  /** Ablation "no pruning": never retire. Default true (prune). */
  prune?: boolean;
  /**
   * Ablation "optimistic initial score": start Δ̄ (and Δ̄_first) from this value instead of the first
   * measurement. The paper reports that this hurts; off by default.
   */
  optimisticStart?: number;
}

interface FamilyState {
  /** Δ̄_t; null until the first validation. */
  smoothed: number | null;
  /** Δ̄ after the first validation: the reference the ratios are taken against. */
  first: number | null;
  retired: boolean;
  retiredAt: number | null;
  /** Validations in which this type was measured (both sides ran at least one episode). */
  validations: number;
  /** With-skill episodes summed over those validations: the evidence behind Δ̄_t. */
  withSkillEpisodes: number;
  /** Skill-free episodes summed over those validations. */
  withoutSkillEpisodes: number;
}

/** What a type's smoothed gap rests on. */
export interface SkillcEvidence {
  validations: number;
  withSkillEpisodes: number;
  withoutSkillEpisodes: number;
}

export interface SkillcCurriculumJSON {
  kind: 'skillc';
  options: Required<Omit<SkillcCurriculumOptions, 'fixedRho' | 'optimisticStart'>> & {
    fixedRho: number | null;
    optimisticStart: number | null;
  };
  step: number;
  families: Record<string, FamilyState>;
}

export interface SkillcCurriculum extends CurriculumController {
  readonly name: 'skillc';
  /**
   * True when a paired validation is due at `step`: at step 0, before any update (its gap is Δ̄_first), and
   * every d steps after.
   */
  validationDue(step: number): boolean;
  /** Δ̄_t per family (null before the first validation). */
  smoothedGaps(): Record<string, number | null>;
  /** Families retired so far, in the order they retired. */
  retirements(): { family: string; step: number }[];
  /** Per family: measured validations and episodes per side so far (what the evidence rule counts). */
  evidence(): Record<string, SkillcEvidence>;
  toJSON(): SkillcCurriculumJSON & JsonValue;
}

function resolveOptions(options: SkillcCurriculumOptions): SkillcCurriculumJSON['options'] {
  const families = checkFamilies(options.families);
  const rhoMin = checkNumber('rhoMin', options.rhoMin ?? 0.125, 0, 1);
  const rhoMax = checkNumber('rhoMax', options.rhoMax ?? 0.25, 0, 1);
  if (rhoMin > rhoMax) {
    throw new InvalidArgumentError(
      'options.rhoMin',
      `must not exceed options.rhoMax (${rhoMin} > ${rhoMax})`,
    );
  }
  const d = options.d ?? 10;
  if (!Number.isInteger(d) || d < 1)
    throw new InvalidArgumentError('options.d', `expected an integer >= 1, got ${d}`);
  const minEvidence = options.minEvidence ?? 16;
  if (!Number.isInteger(minEvidence) || minEvidence < 0) {
    throw new InvalidArgumentError(
      'options.minEvidence',
      `expected an integer >= 0 (validation episodes per side), got ${String(minEvidence)}`,
    );
  }
  const gapFloor = options.gapFloor ?? 0.125;
  if (typeof gapFloor !== 'number' || !(gapFloor > 0 && gapFloor <= 1)) {
    throw new InvalidArgumentError(
      'options.gapFloor',
      `expected a number in (0, 1] (it divides the gap), got ${String(gapFloor)}`,
    );
  }
  return {
    families,
    lambda: checkNumber('lambda', options.lambda ?? 1, 0, Number.MAX_VALUE),
    alpha: checkNumber('alpha', options.alpha ?? 0.9, 0, 1),
    d,
    tau: checkNumber('tau', options.tau ?? 0.02, -1, 1),
    rhoMin,
    rhoMax,
    fixedRho: options.fixedRho === undefined ? null : checkNumber('fixedRho', options.fixedRho, 0, 1),
    prune: options.prune ?? true,
    minEvidence,
    gapFloor,
    optimisticStart:
      options.optimisticStart === undefined
        ? null
        : checkNumber('optimisticStart', options.optimisticStart, -1, 1),
  };
}

function build(
  opts: SkillcCurriculumJSON['options'],
  step: number,
  families: Record<string, FamilyState>,
): SkillcCurriculum {
  let currentStep = step;
  const state = families;

  const ratio = (f: FamilyState): number => attributionRatio(f.smoothed, f.first, opts.gapFloor);

  // Evidence rule: never on the first measured validation, and only with minEvidence episodes per side.
  const hasEvidence = (f: FamilyState): boolean =>
    f.validations >= 2 &&
    f.withSkillEpisodes >= opts.minEvidence &&
    f.withoutSkillEpisodes >= opts.minEvidence;

  const snapshot = (): CurriculumState => {
    const lambda: Record<string, number> = {};
    const rho: Record<string, number> = {};
    const active: string[] = [];
    const retired: string[] = [];
    for (const family of opts.families) {
      const f = state[family]!;
      if (f.retired) {
        lambda[family] = 0;
        rho[family] = 0;
        retired.push(family);
        continue;
      }
      const r = ratio(f);
      lambda[family] = opts.lambda * r;
      rho[family] = opts.fixedRho ?? opts.rhoMin + (opts.rhoMax - opts.rhoMin) * r;
      active.push(family);
    }
    return { step: currentStep, lambda, rho, active, retired };
  };

  const controller: SkillcCurriculum = {
    name: 'skillc',
    state: snapshot,
    observe(input: ValidationResult): CurriculumState {
      const validation = checkValidationShape(input);
      if (validation.step < currentStep) {
        throw new InvalidArgumentError(
          'validation.step',
          `went backwards (${validation.step} after ${currentStep}); restore the curriculum from its checkpoint instead`,
        );
      }
      // Read (and check) every family before changing anything: a bad entry leaves the state as it was.
      const readings = new Map<string, FamilyReading | undefined>(
        opts.families.map((family) => [family, readFamilyValidation(validation.families, family)]),
      );
      currentStep = validation.step;
      for (const family of opts.families) {
        const f = state[family]!;
        if (f.retired) continue;
        const reading = readings.get(family);
        // A side that ran no episode (a family without a skill) is no evidence: the gap is a placeholder.
        if (!reading?.measured) continue;
        const gap = reading.gap;
        if (f.smoothed === null) {
          if (opts.optimisticStart !== null) {
            f.first = opts.optimisticStart;
            f.smoothed = opts.alpha * opts.optimisticStart + (1 - opts.alpha) * gap;
          } else {
            // Started from the first measurement, never from an optimistic guess (the paper's ablation).
            f.smoothed = gap;
            f.first = gap;
          }
        } else {
          f.smoothed = opts.alpha * f.smoothed + (1 - opts.alpha) * gap;
        }
        f.validations++;
        f.withSkillEpisodes += reading.withSkillEpisodes;
        f.withoutSkillEpisodes += reading.withoutSkillEpisodes;
        if (opts.prune && f.smoothed < opts.tau && hasEvidence(f)) {
          // Monotone: a retired type never comes back.
          f.retired = true;
          f.retiredAt = currentStep;
        }
      }
      return snapshot();
    },
    validationDue: (s) => s % opts.d === 0,
    smoothedGaps: () => Object.fromEntries(opts.families.map((f) => [f, state[f]!.smoothed])),
    retirements: () =>
      opts.families
        .filter((f) => state[f]!.retired)
        .map((f) => ({ family: f, step: state[f]!.retiredAt! }))
        .sort((a, b) => a.step - b.step),
    evidence: () =>
      Object.fromEntries(
        opts.families.map((family) => {
          const { validations, withSkillEpisodes, withoutSkillEpisodes } = state[family]!;
          return [family, { validations, withSkillEpisodes, withoutSkillEpisodes }];
        }),
      ),
    toJSON: () =>
      JSON.parse(
        JSON.stringify({ kind: 'skillc', options: opts, step: currentStep, families: state }),
      ) as SkillcCurriculumJSON & JsonValue,
  };
  return controller;
}

/** Creates the SKILLC curriculum. See PAPERS.md for the formulas. */
export function createSkillcCurriculum(options: SkillcCurriculumOptions): SkillcCurriculum {
  const opts = resolveOptions(options);
  const families: Record<string, FamilyState> = {};
  for (const f of opts.families) {
    families[f] = {
      smoothed: null,
      first: null,
      retired: false,
      retiredAt: null,
      validations: 0,
      withSkillEpisodes: 0,
      withoutSkillEpisodes: 0,
    };
  }
  return build(opts, 0, families);
}

/**
 * Restores a SKILLC curriculum from `toJSON()` output; the result behaves exactly like the original.
 * A checkpoint written before validations carried episode counts restores with 0 episodes accumulated per
 * side (and the defaults of `minEvidence` and `gapFloor`): its types retire only on evidence gathered from
 * then on; types it had already retired stay retired.
 */
export function restoreSkillcCurriculum(json: SkillcCurriculumJSON): SkillcCurriculum {
  if (json?.kind !== 'skillc') {
    throw new InvalidArgumentError(
      'curriculum JSON',
      "expected the output of a SKILLC curriculum's toJSON()",
    );
  }
  const { fixedRho, optimisticStart, ...rest } = json.options;
  const opts = resolveOptions({
    ...rest,
    ...(fixedRho === null ? {} : { fixedRho }),
    ...(optimisticStart === null ? {} : { optimisticStart }),
  });
  const families: Record<string, FamilyState> = {};
  for (const f of opts.families) {
    const s = json.families[f];
    if (!s) throw new InvalidArgumentError(`curriculum JSON families.${f}`, 'is missing');
    const restored: FamilyState = { ...s, withSkillEpisodes: 0, withoutSkillEpisodes: 0 };
    for (const side of ['withSkillEpisodes', 'withoutSkillEpisodes'] as const) {
      const count = (s as Partial<FamilyState>)[side];
      if (count === undefined) continue;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
        throw new InvalidArgumentError(
          `curriculum JSON families.${f}.${side}`,
          `expected a non-negative integer, got ${String(count)}`,
        );
      }
      restored[side] = count;
    }
    families[f] = restored;
  }
  return build(opts, json.step, families);
}
