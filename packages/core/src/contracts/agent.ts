import type { Skill } from './skill.js';
import type { Task } from './task.js';
import type { ToolDefinition } from './tool.js';
import type { Condition, TrajectoryStep } from './trajectory.js';
import type { Usage } from './usage.js';

/** Everything the task model sees when it chooses its next action. */
export interface AgentContext {
  task: Task;
  /** Present only when `condition` is 1. */
  skill?: Skill;
  condition: Condition;
  /** The latest observation. */
  observation: string;
  /** Earlier steps of this episode. */
  history: readonly TrajectoryStep[];
  stepIndex: number;
  admissibleActions?: string[];
  tools?: ToolDefinition[];
  /** Seed for this decision, derived from the episode seed, for agents that sample locally. */
  seed?: number;
  signal?: AbortSignal;
  /**
   * Set by the runner on an episode's last decision when the task has tools the runner executes: the
   * budget of tool calls is spent, so this decision must answer. An agent that can leaves the tools out of
   * its request and tells the model `notice`; a tool call made here is never graded as the answer.
   */
  toolBudget?: ToolBudget;
  /**
   * The episode's id (the trajectory's), the same on every decision of one episode: an agent that runs a
   * whole episode elsewhere (a program behind a proxy) keys its per-episode state by it.
   */
  episodeId?: string;
}

/** A spent tool budget (`AgentContext.toolBudget`). */
export interface ToolBudget {
  /** The tool calls the episode was allowed: its step limit less the answering step. */
  maxCalls: number;
  /** What the model is told, e.g. "Tool budget spent (maxCalls N): answer now in plain text, no tool calls." */
  notice: string;
}

/** The agent's decision. Token ids and log-probs are kept where the model gives them. */
export interface AgentAction {
  action: string;
  /** The model's full output, before the action was parsed out of it. */
  raw?: string;
  /** The output could not be turned into an action. */
  invalid?: boolean;
  tokenIds?: number[];
  logProbs?: number[];
  logProb?: number;
  usage?: Usage;
  info?: Record<string, unknown>;
  /**
   * The agent ended the episode without another action (a program that exited, or submitted after its
   * last step): the runner takes no step and verifies the episode as it stands. `action` is ignored.
   */
  end?: boolean;
}

/** How an episode ended, told to the agent that played it (`Agent.endEpisode`). */
export interface EpisodeEnd {
  episodeId: string;
  /** The last observation: what the environment answered to the last action. */
  observation: string;
  /** The environment said the episode is over (not only the step limit, an error or the agent's `end`). */
  done: boolean;
  /** Set when the episode could not finish. */
  error?: { code: string; message: string };
}

/** The task model. */
export interface Agent {
  readonly name?: string;
  act(context: AgentContext): Promise<AgentAction>;
  /**
   * Called once when an episode this agent played ends, whatever ended it (before the environment is
   * closed). Optional: an agent that keeps per-episode state (a running program, an open session) releases
   * it here. A throw is ignored: it never changes the trajectory.
   */
  endEpisode?(end: EpisodeEnd): void | Promise<void>;
}
