import type { CurriculumController, CurriculumState, JsonValue, ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { checkFamilies } from './check-options.js';
import { checkValidationShape, readFamilyValidation } from './read-validation.js';

/**
 * The SKILL0 baseline (arXiv 2604.02268) as its public code does it (ZJU-REAL/SkillZero,
 * `CurriculumSkillManager` and `RayPPOTrainer._validate`). At every validation, per task skill file,
 * Δ = SR_with − SR_without (families that share a file are averaged; a file none of whose families was
 * measured is not a candidate); files with Δ < 0 are dropped, the rest ranked by Δ; the active set is the
 * general files plus the top M − (number of general files) task files, M from `maxSetSchedule` by the
 * validation's index; M = 0 switches every skill off, general ones included. Before the first validation
 * every file is active. Not monotone: a dropped file comes back when its Δ recovers.
 *
 * Every with-skill prompt carries the sections of `withSkillFiles(family)`: the active general files, then
 * the family's own file if active. With-skill validation uses the same (an inactive family gets general
 * only); the final test uses every file (`testSkillFiles`). README: what is SKILL0's code, what is ours.
 */
export interface Skill0CurriculumOptions {
  families: string[];
  /** Total training steps (SKILL0's `total_steps`): the schedule's phases split its validations. */
  totalSteps: number;
  /** M per phase: how many skill files (general ones included) may be active. Default [6, 3, 0]. */
  maxSetSchedule?: number[];
  /** Task skill file of each family; families that share a file have their gaps averaged. Default: one file each. */
  files?: Record<string, string>;
  /**
   * General skill files: active whenever M > 0 and counted in M (SKILL0's single `general_skills` file takes
   * one of the M slots). Pass the adapter's general skill name, or [] for none. Default ['general'].
   */
  generalSkills?: string[];
  /** Validate every d steps (SKILL0's `test_freq`). Default 10. */
  d?: number;
  /**
   * SKILL0's code computes the step-0 validation's M from index (0 − 1) // test_freq = −1, and Python's
   * negative index then picks the LAST phase (M = 0 with [6, 3, 0]): every skill is off until the next
   * validation. Default false: the step-0 validation uses the first phase. True reproduces the quirk.
   */
  reproduceStepZeroQuirk?: boolean;
}

export interface Skill0CurriculumJSON {
  kind: 'skill0';
  options: Required<Skill0CurriculumOptions>;
  step: number;
  /** The active files (general first); null before the first validation (every file active). */
  activeFiles: string[] | null;
  /** Δ per task file at the latest validation; null when that validation did not measure it. */
  fileGaps: Record<string, number | null>;
}

export interface Skill0Curriculum extends CurriculumController {
  readonly name: 'skill0';
  /** True at step 0 (SKILL0 validates before training) and every d steps. */
  validationDue(step: number): boolean;
  /** M that a validation at `step` applies to the set used until the next validation. */
  maxSetSize(step: number): number;
  /** The active skill files, general first, then task files by Δ descending. */
  activeFiles(): string[];
  /**
   * The skill files whose sections go in `family`'s with-skill prompt now, in order: the active general
   * files, then the family's own file if it is active. Empty when M = 0 has switched skills off. Training
   * rollouts and with-skill validation use it.
   */
  withSkillFiles(family: string): string[];
  /** The files of `family`'s with-skill prompt in the final test: every general file, then its own file. */
  testSkillFiles(family: string): string[];
  /** Δ per task file at the latest validation (null: not measured there, or no validation yet). */
  fileGaps(): Record<string, number | null>;
  toJSON(): Skill0CurriculumJSON & JsonValue;
}

function checkNames(name: string, value: unknown, what: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !v)) {
    throw new InvalidArgumentError(`options.${name}`, `expected a list of ${what}`);
  }
  if (new Set(value).size !== value.length) {
    throw new InvalidArgumentError(`options.${name}`, 'names the same file twice');
  }
  return [...value] as string[];
}

function resolve(options: Skill0CurriculumOptions): Required<Skill0CurriculumOptions> {
  const families = checkFamilies(options.families);
  if (!Number.isInteger(options.totalSteps) || options.totalSteps < 1) {
    throw new InvalidArgumentError(
      'options.totalSteps',
      `expected an integer >= 1, got ${String(options.totalSteps)}`,
    );
  }
  const schedule = options.maxSetSchedule ?? [6, 3, 0];
  if (
    !Array.isArray(schedule) ||
    schedule.length === 0 ||
    schedule.some((m) => !Number.isInteger(m) || m < 0)
  ) {
    throw new InvalidArgumentError(
      'options.maxSetSchedule',
      'expected a non-empty list of integers >= 0, e.g. [6, 3, 0]',
    );
  }
  const files = options.files ?? Object.fromEntries(families.map((f) => [f, f]));
  for (const f of families) {
    if (typeof files[f] !== 'string' || !files[f]) {
      throw new InvalidArgumentError(`options.files.${f}`, 'every family needs a skill file name');
    }
  }
  const generalSkills = checkNames(
    'generalSkills',
    options.generalSkills ?? ['general'],
    'general skill file names (or [] for none)',
  );
  for (const g of generalSkills) {
    const family = families.find((f) => files[f] === g);
    if (family !== undefined) {
      throw new InvalidArgumentError(
        'options.generalSkills',
        `"${g}" is also the task file of ${family}; a file is either general or a task file`,
      );
    }
  }
  const d = options.d ?? 10;
  if (!Number.isInteger(d) || d < 1)
    throw new InvalidArgumentError('options.d', `expected an integer >= 1, got ${d}`);
  const quirk = options.reproduceStepZeroQuirk ?? false;
  if (typeof quirk !== 'boolean') {
    throw new InvalidArgumentError('options.reproduceStepZeroQuirk', 'expected true or false');
  }
  return {
    families,
    totalSteps: options.totalSteps,
    maxSetSchedule: [...schedule],
    files: Object.fromEntries(families.map((f) => [f, files[f]!])),
    generalSkills,
    d,
    reproduceStepZeroQuirk: quirk,
  };
}

/** Task files in the order their families are listed (ties in Δ keep this order). */
const taskFilesOf = (opts: Required<Skill0CurriculumOptions>): string[] => [
  ...new Set(opts.families.map((f) => opts.files[f]!)),
];

/** M that a validation at step `s` applies (SKILL0's `get_current_max_set`). */
function maxSetSizeAt(opts: Required<Skill0CurriculumOptions>, s: number): number {
  if (!Number.isInteger(s) || s < 0) {
    throw new InvalidArgumentError('step', `expected an integer >= 0, got ${String(s)}`);
  }
  const phases = opts.maxSetSchedule.length;
  if (s === 0) return opts.maxSetSchedule[opts.reproduceStepZeroQuirk ? phases - 1 : 0]!;
  // SKILL0: validation index (s − 1) // test_freq, phase = index // (validations / phases). Written as
  // index · phases / validations, which is the same where SKILL0 accepts the schedule (validations a
  // multiple of phases) and splits the validations proportionally where it would refuse.
  const validations = Math.max(1, Math.floor(opts.totalSteps / opts.d));
  const index = Math.floor((s - 1) / opts.d);
  return opts.maxSetSchedule[Math.min(phases - 1, Math.floor((index * phases) / validations))]!;
}

/**
 * SKILL0's `update_skill_set`: task files with a measured Δ ≥ 0, ranked by Δ descending (ties in family
 * order; SKILL0's stable sort keeps the order of a Python set of metric names, i.e. none in particular),
 * after the general files; M counts the general files; M = 0 is no skill at all.
 */
function selectActiveFiles(
  opts: Required<Skill0CurriculumOptions>,
  gaps: Record<string, number | null>,
  m: number,
): string[] {
  if (m === 0) return [];
  const ranked = taskFilesOf(opts)
    .map((file, i) => ({ file, i, gap: gaps[file] ?? null }))
    .filter((x): x is { file: string; i: number; gap: number } => x.gap !== null && x.gap >= 0)
    .sort((a, b) => b.gap - a.gap || a.i - b.i)
    .map((x) => x.file);
  return [...opts.generalSkills, ...ranked.slice(0, Math.max(0, m - opts.generalSkills.length))];
}

function build(
  opts: Required<Skill0CurriculumOptions>,
  step: number,
  initialActive: string[] | null,
  initialGaps: Record<string, number | null>,
): Skill0Curriculum {
  let currentStep = step;
  let active = initialActive;
  let gaps = initialGaps;
  const taskFiles = taskFilesOf(opts);
  const allFiles = [...opts.generalSkills, ...taskFiles];
  const maxSetSize = (s: number): number => maxSetSizeAt(opts, s);

  const activeFiles = (): string[] => [...(active ?? allFiles)];

  const familyFile = (family: string): string => {
    const file = Object.hasOwn(opts.files, family) ? opts.files[family] : undefined;
    if (file === undefined) {
      throw new InvalidArgumentError(
        'family',
        `unknown family "${family}"; expected one of options.families`,
      );
    }
    return file;
  };

  const withSkillFiles = (family: string): string[] => {
    const own = familyFile(family);
    const on = new Set(active ?? allFiles);
    return [...opts.generalSkills.filter((g) => on.has(g)), ...(on.has(own) ? [own] : [])];
  };

  const snapshot = (): CurriculumState => {
    const on = new Set(active ?? allFiles);
    const lambda: Record<string, number> = {};
    const rho: Record<string, number> = {};
    const activeFamilies: string[] = [];
    const retired: string[] = [];
    for (const family of opts.families) {
      // SKILL0 trains single-condition: every rollout carries the family's with-skill context (general
      // files included), so ρ = 1 whenever that context is not empty. A family is active while its own file is.
      rho[family] = withSkillFiles(family).length > 0 ? 1 : 0;
      lambda[family] = 0;
      (on.has(opts.files[family]!) ? activeFamilies : retired).push(family);
    }
    return { step: currentStep, lambda, rho, active: activeFamilies, retired };
  };

  return {
    name: 'skill0',
    state: snapshot,
    observe(input: ValidationResult): CurriculumState {
      const validation = checkValidationShape(input);
      if (validation.step < currentStep) {
        throw new InvalidArgumentError(
          'validation.step',
          `went backwards (${validation.step} after ${currentStep}); restore the curriculum from its checkpoint instead`,
        );
      }
      const readings = new Map(
        opts.families.map((family) => [family, readFamilyValidation(validation.families, family)]),
      );
      const m = maxSetSize(validation.step);
      // SKILL0 keeps no memory: the set follows this validation alone.
      const next: Record<string, number | null> = {};
      for (const file of taskFiles) {
        const measured = opts.families
          .filter((f) => opts.files[f] === file)
          .flatMap((f) => {
            const r = readings.get(f);
            return r?.measured ? [r.gap] : [];
          });
        next[file] = measured.length > 0 ? measured.reduce((a, b) => a + b, 0) / measured.length : null;
      }
      currentStep = validation.step;
      gaps = next;
      active = selectActiveFiles(opts, next, m);
      return snapshot();
    },
    validationDue: (s) => s % opts.d === 0,
    maxSetSize,
    activeFiles,
    withSkillFiles,
    testSkillFiles: (family) => [...opts.generalSkills, familyFile(family)],
    fileGaps: () => ({ ...gaps }),
    toJSON: () =>
      JSON.parse(
        JSON.stringify({
          kind: 'skill0',
          options: opts,
          step: currentStep,
          activeFiles: active,
          fileGaps: gaps,
        }),
      ) as Skill0CurriculumJSON & JsonValue,
  };
}

export function createSkill0Curriculum(options: Skill0CurriculumOptions): Skill0Curriculum {
  const opts = resolve(options);
  const gaps: Record<string, number | null> = {};
  for (const f of opts.families) gaps[opts.files[f]!] = null;
  return build(opts, 0, null, gaps);
}

/**
 * Restores a SKILL0 curriculum from `toJSON()` output. A checkpoint written before `activeFiles` was saved
 * gets its set recomputed from its saved gaps at its step (exact when its last validation measured every
 * file, as the loop's validations do).
 */
export function restoreSkill0Curriculum(json: Skill0CurriculumJSON): Skill0Curriculum {
  if (json?.kind !== 'skill0') {
    throw new InvalidArgumentError(
      'curriculum JSON',
      "expected the output of a SKILL0 curriculum's toJSON()",
    );
  }
  const opts = resolve(json.options);
  const gaps: Record<string, number | null> = {};
  for (const f of opts.families) {
    const file = opts.files[f]!;
    const g = json.fileGaps?.[file] ?? null;
    if (g !== null && (typeof g !== 'number' || !Number.isFinite(g))) {
      throw new InvalidArgumentError(
        `curriculum JSON fileGaps.${file}`,
        `expected a number or null, got ${String(g)}`,
      );
    }
    gaps[file] = g;
  }
  const known = new Set([...opts.generalSkills, ...Object.values(opts.files)]);
  if (json.activeFiles === undefined) {
    // Older checkpoint: its saved gaps, taken as one validation at its step.
    const measured = Object.values(gaps).some((g) => g !== null);
    const active = measured ? selectActiveFiles(opts, gaps, maxSetSizeAt(opts, json.step)) : null;
    return build(opts, json.step, active, gaps);
  }
  if (
    json.activeFiles !== null &&
    (!Array.isArray(json.activeFiles) || json.activeFiles.some((f) => !known.has(f)))
  ) {
    throw new InvalidArgumentError(
      'curriculum JSON activeFiles',
      'expected null or a list of the general and task files named in its options',
    );
  }
  return build(opts, json.step, json.activeFiles === null ? null : [...json.activeFiles], gaps);
}
