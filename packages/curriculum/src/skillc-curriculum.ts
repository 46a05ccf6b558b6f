import type { CurriculumController, CurriculumState, JsonValue, ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { checkFamilies, checkNumber, clip01, measuredGap } from './check-options.js';

/**
 * SKILLC's internalization-aware curriculum. PAPERS.md: the signals (a smoothed paired-validation gap per
 * skill type, started from the first measurement) are the paper's; the schedules and the defaults of
 * ρ_min, ρ_max and τ (no published values) are ours.
 */
export interface SkillcCurriculumOptions {
  /** The skill types (task families) the curriculum tracks. */
  families: string[];
  /** Base attribution strength λ; λ_k = λ · clip(Δ̄_t(k) / Δ̄_first(k), 0, 1). Default 1. */
  lambda?: number;
  /** Smoothing factor α of Δ̄_t = α·Δ̄_{t−1} + (1 − α)·Δ_val. Default 0.9. */
  alpha?: number;
  /** Validate every d training steps. Default 10. */
  d?: number;
  /** Retire a type for good once Δ̄_t(k) < τ. Default 0.02 (ours). */
  tau?: number;
  /** Share of z = 1 rollouts once a skill is (nearly) internalized. Default 0.125 (ours: 1 of a group of 8). */
  rhoMin?: number;
  /** Share of z = 1 rollouts while the skill is fully needed. Default 0.5 (ours: an even split). */
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
  validations: number;
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
  /** True when a paired validation is due at `step` (every d steps, and at step 0). */
  validationDue(step: number): boolean;
  /** Δ̄_t per family (null before the first validation). */
  smoothedGaps(): Record<string, number | null>;
  /** Families retired so far, in the order they retired. */
  retirements(): { family: string; step: number }[];
  toJSON(): SkillcCurriculumJSON & JsonValue;
}

function resolveOptions(options: SkillcCurriculumOptions): SkillcCurriculumJSON['options'] {
  const families = checkFamilies(options.families);
  const rhoMin = checkNumber('rhoMin', options.rhoMin ?? 0.125, 0, 1);
  const rhoMax = checkNumber('rhoMax', options.rhoMax ?? 0.5, 0, 1);
  if (rhoMin > rhoMax) {
    throw new InvalidArgumentError(
      'options.rhoMin',
      `must not exceed options.rhoMax (${rhoMin} > ${rhoMax})`,
    );
  }
  const d = options.d ?? 10;
  if (!Number.isInteger(d) || d < 1)
    throw new InvalidArgumentError('options.d', `expected an integer >= 1, got ${d}`);
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

  /** clip(Δ̄_t / Δ̄_first, 0, 1): 1 before any measurement (the skill is assumed needed). */
  const ratio = (f: FamilyState): number => {
    if (f.smoothed === null || f.first === null) return 1;
    // A type whose skill did not help at first has nothing to internalize: no correction, few z = 1 rollouts.
    if (f.first <= 0) return f.smoothed > 0 ? 1 : 0;
    return clip01(f.smoothed / f.first);
  };

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
    observe(validation: ValidationResult): CurriculumState {
      if (!validation || typeof validation.step !== 'number' || typeof validation.families !== 'object') {
        throw new InvalidArgumentError(
          'validation',
          'expected { step, families: { [family]: { withSkill, withoutSkill } } }',
        );
      }
      if (validation.step < currentStep) {
        throw new InvalidArgumentError(
          'validation.step',
          `went backwards (${validation.step} after ${currentStep}); restore the curriculum from its checkpoint instead`,
        );
      }
      currentStep = validation.step;
      for (const family of opts.families) {
        const f = state[family]!;
        if (f.retired) continue;
        const gap = measuredGap(validation.families, family);
        if (gap === undefined) continue;
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
        if (opts.prune && f.smoothed < opts.tau) {
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
  for (const f of opts.families)
    families[f] = { smoothed: null, first: null, retired: false, retiredAt: null, validations: 0 };
  return build(opts, 0, families);
}

/** Restores a SKILLC curriculum from `toJSON()` output; the result behaves exactly like the original. */
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
    families[f] = { ...s };
  }
  return build(opts, json.step, families);
}
