import type { ValidationResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';

/** One family's validation as a curriculum reads it. */
export interface FamilyReading {
  /** Δ_val = SR_with − SR_without. Meaningful only when `measured`. */
  gap: number;
  /** SR_with and SR_without: success rates in [0, 1]. */
  withSkill: number;
  withoutSkill: number;
  withSkillEpisodes: number;
  withoutSkillEpisodes: number;
  /** Both sides ran at least one episode; otherwise the gap is a placeholder and the reading no evidence. */
  measured: boolean;
}

const HOW_TO_FILL =
  'summariseValidation (this package) fills it; by hand, count the validation episodes this family ran on that side (0 when none ran)';

/** Throws unless `validation` has the `{ step, families }` shape; returns it typed. */
export function checkValidationShape(validation: unknown): ValidationResult {
  const v = validation as ValidationResult | null | undefined;
  if (
    !v ||
    typeof v !== 'object' ||
    typeof v.step !== 'number' ||
    !Number.isInteger(v.step) ||
    v.step < 0 ||
    !v.families ||
    typeof v.families !== 'object'
  ) {
    throw new InvalidArgumentError(
      'validation',
      'expected { step (an integer >= 0), families: { [family]: { withSkill, withoutSkill, withSkillEpisodes, withoutSkillEpisodes } } }',
    );
  }
  return v;
}

function checkCount(family: string, field: 'withSkillEpisodes' | 'withoutSkillEpisodes', value: unknown) {
  const argument = `validation.families.${family}.${field}`;
  const side = field === 'withSkillEpisodes' ? 'with-skill (z = 1)' : 'skill-free (z = 0)';
  if (value === undefined) {
    throw new InvalidArgumentError(
      argument,
      `is missing: expected the number of ${side} validation episodes behind the rate, a non-negative integer; ${HOW_TO_FILL}`,
    );
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError(
      argument,
      `expected the number of ${side} validation episodes, a non-negative integer, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Reads one family's entry of a validation, or undefined when the validation has none. Throws a typed
 * error naming the field when a rate is outside [0, 1], a count is missing or not a non-negative integer,
 * or `episodes` disagrees with the two counts.
 */
export function readFamilyValidation(
  families: ValidationResult['families'],
  family: string,
): FamilyReading | undefined {
  const entry = families[family];
  if (entry === undefined) return undefined;
  if (!entry || typeof entry !== 'object') {
    throw new InvalidArgumentError(
      `validation.families.${family}`,
      'expected { withSkill, withoutSkill, withSkillEpisodes, withoutSkillEpisodes }',
    );
  }
  const { withSkill, withoutSkill, episodes } = entry;
  if (
    ![withSkill, withoutSkill].every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1)
  ) {
    throw new InvalidArgumentError(
      `validation.families.${family}`,
      `expected withSkill and withoutSkill success rates in [0, 1], got ${withSkill} and ${withoutSkill}`,
    );
  }
  const withSkillEpisodes = checkCount(family, 'withSkillEpisodes', entry.withSkillEpisodes);
  const withoutSkillEpisodes = checkCount(family, 'withoutSkillEpisodes', entry.withoutSkillEpisodes);
  if (episodes !== undefined && episodes !== withSkillEpisodes + withoutSkillEpisodes) {
    throw new InvalidArgumentError(
      `validation.families.${family}.episodes`,
      `expected the total withSkillEpisodes + withoutSkillEpisodes = ${withSkillEpisodes + withoutSkillEpisodes}, got ${String(episodes)} (or leave it out)`,
    );
  }
  return {
    gap: withSkill - withoutSkill,
    withSkill,
    withoutSkill,
    withSkillEpisodes,
    withoutSkillEpisodes,
    measured: withSkillEpisodes > 0 && withoutSkillEpisodes > 0,
  };
}
