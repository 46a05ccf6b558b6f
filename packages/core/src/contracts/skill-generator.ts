import type { ChatMessage } from './chat-model.js';
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

/**
 * A proposal the loop (or the editor itself) did not accept, and why: a reply with no SKILL.md in it, a skill
 * that breaks an Agent Skills rule, or a call that returned nothing.
 */
export interface RejectedProposal {
  /** What was wrong, in words an editor can act on (`[name-charset] name: …`, `no SKILL.md in the reply`). */
  reason: string;
  /** `reply`: the editor rejected its own model's reply; `invalid`: the skill failed `validateSkill`; `empty`: nothing came back. */
  kind?: 'reply' | 'invalid' | 'empty';
  /** The start of the rejected text, when there was one. */
  excerpt?: string;
  /** The loop's attempt the proposal came from: 0 for the first call, then one per retry. */
  attempt?: number;
  /**
   * The rejected reply as the editor's model sampled it, when the model returns tokens (an editor trained on
   * its own samples): its token ids and log-probs, and the prompt it answered. Stored with the proposal, so a
   * trained editor credits the reply in the generation's update, on a resumed run as on an uninterrupted one.
   */
  reply?: RejectedReplyTokens;
}

/** A rejected reply's own sampled tokens (`RejectedProposal.reply`). */
export interface RejectedReplyTokens {
  tokenIds: number[];
  logProbs: number[];
  /** The chat messages the reply answered (rendered again through the chat template to train on). */
  prompt: ChatMessage[];
}

/** What a trainable generator's update is told besides its candidates' advantages. */
export interface SkillUpdateContext {
  /**
   * The generation's proposals that became no candidate and carry their sampled tokens (`reply`), across its
   * tasks and retries, in task then attempt order; read back from the run directory on a resumed run.
   */
  rejected: readonly RejectedProposal[];
}

export interface SkillGenerationContext {
  task: Task;
  generation: number;
  currentSkill?: Skill;
  history: readonly GenerationRecord[];
  seed?: number;
  signal?: AbortSignal;
  /**
   * A retry: 1 for the first one (absent or 0 on the first call). The loop asks again, with `rejections`,
   * when a call gave no valid candidate.
   */
  attempt?: number;
  /** What was wrong with this task's earlier proposals in this generation, oldest first (a retry only). */
  rejections?: readonly RejectedProposal[];
  /**
   * Editors that reject replies themselves (an LLM reply with no SKILL.md in it) report each one here, so
   * the loop can store and count it even when the call returns no candidate.
   */
  onReject?: (rejection: RejectedProposal) => void;
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
  /**
   * How many `propose` calls the editor takes at once (an API's rate limit, a single in-process model). The
   * loop proposes for the tasks of a generation concurrently up to the run's concurrency and this limit.
   */
  readonly maxConcurrency?: number;
  propose(context: SkillGenerationContext, n: number): Promise<SkillCandidate[]>;
  /**
   * Trainable generators learn from candidate advantages (one per candidate), and may credit the rejected
   * replies of the same generation (`context.rejected`: a defined negative advantage, for instance).
   */
  update?(
    candidates: readonly SkillCandidate[],
    advantages: ArrayLike<number>,
    context?: SkillUpdateContext,
  ): Promise<TrainMetrics>;
}
