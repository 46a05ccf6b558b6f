import type { JsonValue } from './json.js';

/** What a curriculum tells the training loop, per skill type (family). */
export interface CurriculumState {
  /** Training step at which this state was computed. */
  step: number;
  /** Attribution strength λ_k per family. */
  lambda: Record<string, number>;
  /** Share ρ_k of skill-injected (z = 1) rollouts per family. */
  rho: Record<string, number>;
  /** Families whose skills are still in use. */
  active: string[];
  /** Families retired for good (SKILLC) or currently dropped (SKILL0). */
  retired?: string[];
}

/** One family's paired validation: success rates and how many episodes each side ran. */
export interface FamilyValidation {
  /** Success rate of the with-skill (z = 1) episodes, in [0, 1]. */
  withSkill: number;
  /** Success rate of the skill-free (z = 0) episodes, in [0, 1]. */
  withoutSkill: number;
  /**
   * How many with-skill (z = 1) validation episodes ran for this family. 0 when none ran (a family without
   * a skill): `withSkill` is then a placeholder and the side is no evidence.
   */
  withSkillEpisodes: number;
  /** How many skill-free (z = 0) validation episodes ran for this family. */
  withoutSkillEpisodes: number;
  /** Total episodes, withSkillEpisodes + withoutSkillEpisodes; kept for readers of older runs. */
  episodes?: number;
  /**
   * Episodes that ended in an error (a failed model call, a crashed environment) and so measured nothing:
   * left out of both rates and both counts above. Absent when none did.
   */
  erroredEpisodes?: number;
}

/**
 * Paired validation: success rate with and without the skill, per family, with the episode counts behind
 * each rate (a curriculum weighs a 0/8 vs 0/8 result as the little evidence it is).
 */
export interface ValidationResult {
  step: number;
  families: Record<string, FamilyValidation>;
}

export interface CurriculumController {
  readonly name: string;
  state(): CurriculumState;
  observe(validation: ValidationResult): CurriculumState;
  toJSON(): JsonValue;
}
