import type { ChatTurnRecord } from './chat-turn.js';
import type { SkillRef } from './skill.js';
import type { Usage } from './usage.js';
import type { Verdict } from './verdict.js';

/** 1: the skill was in the prompt (τ+); 0: it was not (τ−). */
export type Condition = 0 | 1;

export interface TrajectoryStep {
  index: number;
  /** The observation the agent acted on. */
  observation: string;
  action: string;
  /** The environment's reward for this step. */
  reward: number;
  done: boolean;
  /**
   * The anchor state the step acted from, when the environment names it (`Environment.stateKey`) and the
   * name differs from the observation text; absent, the state is the observation (core's `stateKeyOf`).
   */
  stateKey?: string;
  /** The agent emitted something that is not a valid action (unparseable text, malformed tool call). */
  invalid?: boolean;
  latencyMs?: number;
  usage?: Usage;
  /** Token ids and per-token log-probs of the action, when the model returned them. */
  tokenIds?: number[];
  logProbs?: number[];
  /** Log-probability of the whole action (the sum, or the policy's own action log-prob). */
  logProb?: number;
  /**
   * What the step knows besides its fields. The agent's own info (`raw` reply, `toolCall`, a policy's
   * record) sits here at the top level; the environment's `StepResult.info` sits under **`env`**, so the two
   * never overwrite each other. A verifier reads the environment's flags there:
   * `trajectory.steps.at(-1)?.info?.env?.sorted`, never `info?.sorted`. The episode runner
   * (`runEpisode` in `@skillrl/rollout`) writes it this way, and the testkit's adapter conformance plays its
   * episodes through that runner, so a verifier that passes conformance reads what real runs write.
   */
  info?: TrajectoryStepInfo;
}

/** `TrajectoryStep.info`: the agent's info at the top level, the environment's under `env`. */
export interface TrajectoryStepInfo {
  /** The environment's `StepResult.info` for this step, as it returned it. */
  env?: Record<string, unknown>;
  /**
   * What an LLM agent sent and received for this decision (the openai agent of `@skillrl/rollout` writes
   * it): the request's messages and tools, the reply, the prompt's token ids; delta-coded against the
   * previous step, expanded by `chatTurnsOf(steps)`.
   */
  chat?: ChatTurnRecord;
  [key: string]: unknown;
}

export interface TrajectoryError {
  code: string;
  message: string;
}

/** One rollout. Written as one JSONL line in `rollouts.jsonl`. */
export interface Trajectory {
  id: string;
  taskId: string;
  family: string;
  condition: Condition;
  skill?: SkillRef;
  /** Skill-R1: the generation and candidate index this rollout evaluated. */
  generation?: number;
  candidate?: number;
  /** The group the rollout belongs to and its index inside it, fixed by the seed before sampling. */
  groupId?: string;
  index?: number;
  steps: TrajectoryStep[];
  answer?: string;
  reward: number;
  verdict: Verdict;
  usage?: Usage;
  /** Set when the episode could not finish (model calls failed past the retry budget, environment crash). */
  error?: TrajectoryError;
  seed?: number;
  durationMs?: number;
}
