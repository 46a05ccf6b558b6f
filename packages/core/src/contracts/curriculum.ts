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

/** Paired validation: success rate with and without the skill, per family. */
export interface ValidationResult {
  step: number;
  families: Record<string, { withSkill: number; withoutSkill: number; episodes?: number }>;
}

export interface CurriculumController {
  readonly name: string;
  state(): CurriculumState;
  observe(validation: ValidationResult): CurriculumState;
  toJSON(): JsonValue;
}
