import type { CurriculumController, CurriculumState, JsonValue, ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { checkFamilies, measuredGap } from './check-options.js';

/**
 * The SKILL0 baseline (arXiv 2604.02268, from its public code): every validation, per skill file
 * Δ = SR_with − SR_without (families that share a file are averaged); files with Δ < 0 are dropped, the rest
 * ranked by Δ, and the active set is the general skills plus the top M − 1 files, with M following
 * `maxSetSchedule` over equal phases of training (M = 0 is the hard switch to no skills). Not monotone: a
 * dropped file can come back at the next validation.
 */
export interface Skill0CurriculumOptions {
  families: string[];
  /** Total training steps: the schedule's phases split it evenly. */
  totalSteps: number;
  /** M per phase. Default [6, 3, 0]. */
  maxSetSchedule?: number[];
  /** Skill file of each family; families that share a file have their gaps averaged. Default: one file each. */
  files?: Record<string, string>;
  /** Names of general skills, always active while M > 0. Default ['general']. */
  generalSkills?: string[];
  /** Validate every d steps. Default 10. */
  d?: number;
}

export interface Skill0CurriculumJSON {
  kind: 'skill0';
  options: Required<Skill0CurriculumOptions>;
  step: number;
  /** Latest Δ per file; null before it was measured. */
  fileGaps: Record<string, number | null>;
}

export interface Skill0Curriculum extends CurriculumController {
  readonly name: 'skill0';
  validationDue(step: number): boolean;
  /** M for a training step. */
  maxSetSize(step: number): number;
  /** The active skill files (general skills first). */
  activeFiles(): string[];
  toJSON(): Skill0CurriculumJSON & JsonValue;
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
    if (typeof files[f] !== 'string') {
      throw new InvalidArgumentError(`options.files.${f}`, 'every family needs a skill file name');
    }
  }
  const d = options.d ?? 10;
  if (!Number.isInteger(d) || d < 1)
    throw new InvalidArgumentError('options.d', `expected an integer >= 1, got ${d}`);
  return {
    families,
    totalSteps: options.totalSteps,
    maxSetSchedule: [...schedule],
    files: { ...files },
    generalSkills: [...(options.generalSkills ?? ['general'])],
    d,
  };
}

function build(
  opts: Required<Skill0CurriculumOptions>,
  step: number,
  fileGaps: Record<string, number | null>,
): Skill0Curriculum {
  let currentStep = step;
  const gaps = fileGaps;
  const fileOrder = [...new Set(opts.families.map((f) => opts.files[f]!))];

  const maxSetSize = (s: number): number => {
    const phases = opts.maxSetSchedule.length;
    const phase = Math.min(phases - 1, Math.floor((s * phases) / opts.totalSteps));
    return opts.maxSetSchedule[phase]!;
  };

  const activeFiles = (): string[] => {
    const m = maxSetSize(currentStep);
    if (m === 0) return [];
    // Unmeasured files keep their place (they are assumed useful until measured); measured ones with Δ < 0 drop.
    const candidates = fileOrder.filter((file) => gaps[file] === null || (gaps[file] as number) >= 0);
    const ranked = candidates
      .map((file, i) => ({ file, i, gap: gaps[file] ?? Number.POSITIVE_INFINITY }))
      .sort((a, b) => b.gap - a.gap || a.i - b.i)
      .map((x) => x.file);
    return [...opts.generalSkills, ...ranked.slice(0, Math.max(0, m - 1))];
  };

  const snapshot = (): CurriculumState => {
    const files = new Set(activeFiles());
    const lambda: Record<string, number> = {};
    const rho: Record<string, number> = {};
    const active: string[] = [];
    const retired: string[] = [];
    for (const family of opts.families) {
      const on = files.has(opts.files[family]!);
      // SKILL0 trains single-condition: a family's rollouts all carry its skill while its file is active.
      rho[family] = on ? 1 : 0;
      lambda[family] = 0;
      (on ? active : retired).push(family);
    }
    return { step: currentStep, lambda, rho, active, retired };
  };

  return {
    name: 'skill0',
    state: snapshot,
    observe(validation: ValidationResult): CurriculumState {
      if (!validation || typeof validation.step !== 'number' || typeof validation.families !== 'object') {
        throw new InvalidArgumentError(
          'validation',
          'expected { step, families: { [family]: { withSkill, withoutSkill } } }',
        );
      }
      currentStep = validation.step;
      for (const file of fileOrder) {
        const members = opts.families.filter((f) => opts.files[f] === file);
        const measured = members
          .map((f) => measuredGap(validation.families, f))
          .filter((g): g is number => g !== undefined);
        if (measured.length > 0) gaps[file] = measured.reduce((a, b) => a + b, 0) / measured.length;
      }
      return snapshot();
    },
    validationDue: (s) => s % opts.d === 0,
    maxSetSize,
    activeFiles,
    toJSON: () =>
      JSON.parse(
        JSON.stringify({ kind: 'skill0', options: opts, step: currentStep, fileGaps: gaps }),
      ) as Skill0CurriculumJSON & JsonValue,
  };
}

export function createSkill0Curriculum(options: Skill0CurriculumOptions): Skill0Curriculum {
  const opts = resolve(options);
  const gaps: Record<string, number | null> = {};
  for (const f of opts.families) gaps[opts.files[f]!] = null;
  return build(opts, 0, gaps);
}

export function restoreSkill0Curriculum(json: Skill0CurriculumJSON): Skill0Curriculum {
  if (json?.kind !== 'skill0') {
    throw new InvalidArgumentError(
      'curriculum JSON',
      "expected the output of a SKILL0 curriculum's toJSON()",
    );
  }
  return build(resolve(json.options), json.step, { ...json.fileGaps });
}
