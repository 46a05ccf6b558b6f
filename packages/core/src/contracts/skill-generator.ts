import type { Skill } from './skill.js';
import type { Task } from './task.js';

/** A short account of one episode, for the generator's history. */
export interface EpisodeSummary {
  trajectoryId: string;
  reward: number;
  passed: boolean;
  /** Index of the first step that went wrong, when known. */
  failingStep?: number;
  lastObservation?: string;
  reason?: string;
}

/** One generation of the Skill-R1 loop as the generator sees it later. */
export interface GenerationRecord {
  generation: number;
  /** The skill carried forward from this generation. */
  skill: Skill;
  /** Mean verified reward of that skill. */
  reward: number;
  candidates?: { skill: Skill; reward: number }[];
  failures?: EpisodeSummary[];
  successes?: EpisodeSummary[];
}

export interface SkillGenerationContext {
  task: Task;
  generation: number;
  currentSkill?: Skill;
  history: readonly GenerationRecord[];
  seed?: number;
  signal?: AbortSignal;
}

/** A proposed skill with whatever the generator needs to learn from it later. */
export interface SkillCandidate {
  skill: Skill;
  /** The generator's raw output (SKILL.md text or step list). */
  text: string;
  tokenIds?: number[];
  logProbs?: number[];
  logProb?: number;
  /** Set when the generator's output had to be repaired or was replaced. */
  repaired?: string;
  info?: Record<string, unknown>;
}

export type TrainMetrics = Record<string, number>;

export interface SkillGenerator {
  readonly name?: string;
  propose(context: SkillGenerationContext, n: number): Promise<SkillCandidate[]>;
  /** Trainable generators learn from candidate advantages (one per candidate). */
  update?(candidates: readonly SkillCandidate[], advantages: ArrayLike<number>): Promise<TrainMetrics>;
}
