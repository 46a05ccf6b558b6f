import type { CurriculumController, CurriculumState, JsonValue, ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { attributionRatio } from './attribution-ratio.js';
import { checkFamilies, checkNumber } from './check-options.js';
import { evidenceForBound, gapInterval } from './gap-bound.js';
import { checkValidationShape, type FamilyReading, readFamilyValidation } from './read-validation.js';

/**
 * SKILLC's internalization-aware curriculum. PAPERS.md: the signals (a smoothed paired-validation gap per
 * skill type, started from the first measurement, taken before training) are the paper's; the schedules,
 * the evidence rule and the defaults of ρ_min, ρ_max, τ, minEvidence and gapFloor (no published values) are
 * ours.
 *
 * Retirement is on information (PAPERS.md): a type retires for good once the upper confidence bound of its
 * recent pooled gap (Newcombe's interval for a difference of two proportions over the latest validations,
 * pooled until each side holds `minEvidence` episodes) is below τ, with the skill shown to work in that pool
 * (a with-skill success rate of at least `minSkillRate`, and `minSkillSuccesses`), on `confirmations`
 * validations in a row, never on the first validation. An all-fail validation, however
 * many, never retires a type; a type whose gap has truly closed retires within ⌈minEvidence / n⌉
 * validations of n episodes per side (5 at the bench's 8 per side with the defaults). The smoothed Δ̄_t
 * drives λ_k and ρ_k only: with α = 0.9 it needs about 24 validations to fall below a small τ, which is why
 * it no longer decides retirement.
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
  /**
   * Retire a type for good once the upper confidence bound of its recent pooled gap is below τ: the evidence
   * says the skill adds less than τ to the success rate. Default 0.15 (ours: at the bench's validation of
   * 8 episodes per side a 0.02 bound would need ~3000 episodes per side; 0.15 is reached by a truly closed
   * gap at any success rate within 5 validations).
   */
  tau?: number;
  /**
   * The normal quantile of the one-sided upper bound. Default 1.2816 (a one-sided 90 % bound); 1.645 is
   * 95 %.
   */
  boundZ?: number;
  /**
   * Episodes per side the retirement bound pools: the most recent validations are pooled until EACH side
   * (with and without the skill) holds at least this many episodes; until then the type cannot retire.
   * Default: derived from τ and boundZ (`evidenceForBound`): the fewest episodes per side at which a gap of
   * exactly 0 at a success rate of ½ has its bound below τ (36 with the defaults). A validation of n
   * episodes per side reaches it in ⌈minEvidence / n⌉ validations.
   */
  minEvidence?: number;
  /**
   * With-skill successes the pooled validations must hold before a type can retire: 0/n vs 0/n (a narrow
   * interval around 0) says nothing about the skill. Default 1 (PAPERS.md's floor; `minSkillRate` asks more).
   */
  minSkillSuccesses?: number;
  /**
   * The pooled with-skill success rate a type must reach before it can retire: a type retires when the
   * policy no longer needs a skill that works, not when the skill has not started to work yet. A retired type
   * loses its with-skill rollouts, which for a hard type (pick2: 6–40 % with its skill on household) are most
   * of its successes; measured at 360 steps, seed 1, retiring pick2 at 12 % with the skill cost 5 points on
   * its held-out test. Default 0.5 (ours).
   */
  minSkillRate?: number;
  /**
   * Consecutive validations whose pool must meet the rule before a type retires. The rule is checked at
   * every validation on overlapping pools, so a single pass is a multiple test; asking for two passes in a
   * row cuts the chance that noise retires a skill that still helps. Default 2 (ours).
   */
  confirmations?: number;
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
  /**
   * Hold a type's λ_k and ρ_k at their full values (r = 1: λ and ρ_max) until its skill is shown to work: its
   * retirement pool's with-skill success rate reaches `minSkillRate` (the rule retirement already asks). The
   * schedule reads a small gap as "internalized"; for a hard type whose skill does not work yet (pick2: both
   * sides near 0), a small gap means nothing has been learned either way, and the schedule would otherwise give
   * it the least credit and the fewest with-skill rollouts (issue 38's Pick2 diagnosis). Default false (ours;
   * bench:paper runs it as a row beside SKILLC).
   */
  holdUntilSkillWorks?: boolean;
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
  /**
   * The latest measured validations, oldest first, as [with-skill successes, with-skill episodes,
   * skill-free successes, skill-free episodes]: what the retirement bound pools. Trimmed to what it needs.
   */
  recent: [number, number, number, number][];
  /** Consecutive validations, up to the latest, whose pool met the retirement rule. */
  passes: number;
}

/** What a type's gap and its retirement rest on. */
export interface SkillcEvidence {
  validations: number;
  withSkillEpisodes: number;
  withoutSkillEpisodes: number;
  /**
   * The retirement pool (the latest validations up to `minEvidence` per side) and Newcombe's interval of
   * its gap at `boundZ`; null before the first measured validation.
   */
  pool: {
    validations: number;
    withSkill: { successes: number; episodes: number };
    withoutSkill: { successes: number; episodes: number };
    gap: number;
    lower: number;
    upper: number;
  } | null;
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
  const tau = checkNumber('tau', options.tau ?? 0.15, -1, 1);
  const boundZ = checkNumber('boundZ', options.boundZ ?? 1.2816, 0, 10);
  const derived = evidenceForBound(tau, boundZ);
  const minEvidence = options.minEvidence ?? (Number.isFinite(derived) ? derived : 0);
  if (!Number.isInteger(minEvidence) || minEvidence < 0) {
    throw new InvalidArgumentError(
      'options.minEvidence',
      `expected an integer >= 0 (validation episodes per side the retirement bound pools), got ${String(minEvidence)}`,
    );
  }
  const minSkillSuccesses = options.minSkillSuccesses ?? 1;
  const minSkillRate = checkNumber('minSkillRate', options.minSkillRate ?? 0.5, 0, 1);
  if (!Number.isInteger(minSkillSuccesses) || minSkillSuccesses < 1) {
    throw new InvalidArgumentError(
      'options.minSkillSuccesses',
      `expected an integer >= 1 (with-skill successes in the retirement pool; 0/n vs 0/n says nothing), got ${String(minSkillSuccesses)}`,
    );
  }
  const confirmations = options.confirmations ?? 2;
  if (!Number.isInteger(confirmations) || confirmations < 1) {
    throw new InvalidArgumentError(
      'options.confirmations',
      `expected an integer >= 1 (consecutive validations meeting the retirement rule), got ${String(confirmations)}`,
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
    tau,
    boundZ,
    minSkillSuccesses,
    minSkillRate,
    confirmations,
    rhoMin,
    rhoMax,
    fixedRho: options.fixedRho === undefined ? null : checkNumber('fixedRho', options.fixedRho, 0, 1),
    prune: options.prune ?? true,
    holdUntilSkillWorks: options.holdUntilSkillWorks ?? false,
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

  const pool = (f: FamilyState): SkillcEvidence['pool'] =>
    poolRecent(f.recent, opts.minEvidence, opts.boundZ);

  /** The type's skill works: its retirement pool's with-skill rate reached minSkillRate (with some success). */
  const skillWorks = (f: FamilyState): boolean => {
    const p = pool(f);
    return (
      p !== null &&
      p.withSkill.episodes > 0 &&
      p.withSkill.successes >= opts.minSkillSuccesses &&
      p.withSkill.successes >= opts.minSkillRate * p.withSkill.episodes
    );
  };

  const ratio = (f: FamilyState): number =>
    opts.holdUntilSkillWorks && !skillWorks(f) ? 1 : attributionRatio(f.smoothed, f.first, opts.gapFloor);

  // Retirement on information: never on the first measured validation; only once the pool holds
  // minEvidence episodes per side and a skill that works (minSkillSuccesses, minSkillRate); and only when the upper
  // bound of the pooled gap is below τ.
  const shouldRetire = (f: FamilyState): boolean => {
    const p = pool(f);
    return (
      p !== null &&
      p.validations >= 2 &&
      p.withSkill.episodes >= opts.minEvidence &&
      p.withoutSkill.episodes >= opts.minEvidence &&
      p.withSkill.successes >= opts.minSkillSuccesses &&
      p.withSkill.successes >= opts.minSkillRate * p.withSkill.episodes &&
      p.upper < opts.tau
    );
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
        f.recent.push([
          Math.round(reading.withSkill * reading.withSkillEpisodes),
          reading.withSkillEpisodes,
          Math.round(reading.withoutSkill * reading.withoutSkillEpisodes),
          reading.withoutSkillEpisodes,
        ]);
        trimRecent(f.recent, opts.minEvidence);
        f.passes = shouldRetire(f) ? f.passes + 1 : 0;
        if (opts.prune && f.passes >= opts.confirmations) {
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
          const f = state[family]!;
          const { validations, withSkillEpisodes, withoutSkillEpisodes } = f;
          return [family, { validations, withSkillEpisodes, withoutSkillEpisodes, pool: pool(f) }];
        }),
      ),
    toJSON: () =>
      JSON.parse(
        JSON.stringify({ kind: 'skillc', options: opts, step: currentStep, families: state }),
      ) as SkillcCurriculumJSON & JsonValue,
  };
  return controller;
}

/**
 * The retirement pool: the latest validations, newest first, until each side holds `minEvidence` episodes
 * (or all there are), with Newcombe's interval of the pooled gap. Pooling counts, not rates, weighs each
 * validation by its size.
 */
function poolRecent(recent: FamilyState['recent'], minEvidence: number, z: number): SkillcEvidence['pool'] {
  if (recent.length === 0) return null;
  const withSkill = { successes: 0, episodes: 0 };
  const withoutSkill = { successes: 0, episodes: 0 };
  let validations = 0;
  for (let i = recent.length - 1; i >= 0; i--) {
    const [k1, n1, k0, n0] = recent[i]!;
    withSkill.successes += k1;
    withSkill.episodes += n1;
    withoutSkill.successes += k0;
    withoutSkill.episodes += n0;
    validations++;
    if (withSkill.episodes >= minEvidence && withoutSkill.episodes >= minEvidence && validations >= 2) break;
  }
  return { validations, withSkill, withoutSkill, ...gapInterval(withSkill, withoutSkill, z) };
}

/** Drops validations older than the pool can reach (it needs at most minEvidence per side, and two). */
function trimRecent(recent: FamilyState['recent'], minEvidence: number): void {
  let n1 = 0;
  let n0 = 0;
  for (let i = recent.length - 1; i >= 0; i--) {
    n1 += recent[i]![1];
    n0 += recent[i]![3];
    if (n1 >= minEvidence && n0 >= minEvidence && recent.length - i >= 2) {
      recent.splice(0, i);
      return;
    }
  }
}

/** A checkpoint's retirement pool, checked; [] for a checkpoint written before pools existed. */
function checkRecent(family: string, recent: unknown): FamilyState['recent'] {
  if (recent === undefined) return [];
  const ok =
    Array.isArray(recent) &&
    recent.every(
      (r) =>
        Array.isArray(r) &&
        r.length === 4 &&
        r.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0) &&
        r[0] <= r[1] &&
        r[2] <= r[3],
    );
  if (!ok) {
    throw new InvalidArgumentError(
      `curriculum JSON families.${family}.recent`,
      'expected a list of [with-skill successes, with-skill episodes, skill-free successes, skill-free episodes] of non-negative integers',
    );
  }
  return (recent as FamilyState['recent']).map((r) => [...r] as FamilyState['recent'][number]);
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
      recent: [],
      passes: 0,
    };
  }
  return build(opts, 0, families);
}

/**
 * Restores a SKILLC curriculum from `toJSON()` output; the result behaves exactly like the original.
 * A checkpoint written before validations carried episode counts, or before the retirement pool existed,
 * restores with nothing pooled (and the defaults of the options it lacks): its types retire only on
 * evidence gathered from then on; types it had already retired stay retired. Its stored τ and minEvidence
 * are kept as they were resolved when the run started.
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
    const restored: FamilyState = {
      ...s,
      withSkillEpisodes: 0,
      withoutSkillEpisodes: 0,
      recent: checkRecent(f, (s as Partial<FamilyState>).recent),
      passes: 0,
    };
    const passes = (s as Partial<FamilyState>).passes;
    if (passes !== undefined) {
      if (typeof passes !== 'number' || !Number.isInteger(passes) || passes < 0) {
        throw new InvalidArgumentError(
          `curriculum JSON families.${f}.passes`,
          `expected a non-negative integer, got ${String(passes)}`,
        );
      }
      restored.passes = passes;
    }
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

/** Whether a run's validation can ever retire a SKILLC type, and how soon (`retirementReach`). */
export interface RetirementReach {
  canRetire: boolean;
  /** The 1-based validation (step 0's is the first) at which a type can retire at the earliest; null if never. */
  earliestValidation: number | null;
  /** Episodes per side the retirement bound pools (`minEvidence`, resolved). */
  minEvidence: number;
  /** Why not, in words, when `canRetire` is false. */
  reason?: string;
}

/**
 * Whether a validation of `episodesPerSide` episodes per side and type, run `validations` times (step 0's
 * included), can ever retire a type under these curriculum options — in the best case, every episode a
 * success on both sides — and at which validation at the earliest. What `skillrl check` warns on: a run
 * whose validation can never retire anything never prunes, whatever its config says.
 */
export function retirementReach(
  options: SkillcCurriculumOptions,
  episodesPerSide: number,
  validations: number,
): RetirementReach {
  const opts = resolveOptions(options);
  const base = { minEvidence: opts.minEvidence, earliestValidation: null, canRetire: false };
  if (!opts.prune) return { ...base, reason: 'pruning is off (prune: false)' };
  if (!(episodesPerSide > 0)) {
    return { ...base, reason: 'the validation runs no episode of this type on one side' };
  }
  const pooled = Math.max(2, Math.ceil(opts.minEvidence / episodesPerSide));
  const earliest = pooled + opts.confirmations - 1;
  const n = pooled * episodesPerSide;
  const best = gapInterval({ successes: n, episodes: n }, { successes: n, episodes: n }, opts.boundZ);
  if (n < opts.minSkillSuccesses || !(best.upper < opts.tau)) {
    return {
      ...base,
      reason: `even ${n}/${n} vs ${n}/${n} (${pooled} validations of ${episodesPerSide} a side) leaves the gap's upper bound at ${best.upper.toFixed(3)}, not below tau ${opts.tau}`,
    };
  }
  if (earliest > validations) {
    return {
      ...base,
      reason: `a type needs ${earliest} validations of ${episodesPerSide} episodes a side (${opts.minEvidence} a side pooled, ${opts.confirmations} passes in a row); the run has ${validations}`,
    };
  }
  return { ...base, canRetire: true, earliestValidation: earliest };
}
