/** What one environment step returns. Observations are exactly the text the agent sees. */
export interface StepResult {
  observation: string;
  reward: number;
  done: boolean;
  /**
   * Anything the environment wants a verifier to see (a success flag, the purchase made). Plain JSON: it is
   * stored in `rollouts.jsonl`. The episode runner keeps it at `step.info.env` of the trajectory step, so a
   * verifier reads `trajectory.steps.at(-1)?.info?.env?.<field>` (see `TrajectoryStep.info`).
   */
  info?: Record<string, unknown>;
}

/**
 * A text environment for one task. Single-turn question answering is a one-step environment whose step
 * is the answer.
 */
export interface Environment {
  /** Starts (or restarts) the episode and returns the first observation. */
  reset(): string | Promise<string>;
  step(action: string): StepResult | Promise<StepResult>;
  /** Actions that are valid now, when the environment can enumerate them (ALFWorld, WebShop). */
  admissibleActions?(): string[];
  /** The step limit the episode loop enforces. */
  readonly maxSteps: number;
  /**
   * The state the agent acts from now, as a key: steps of one task's episodes with equal keys acted from the
   * same state (GiGPO's anchor states). Optional: without it the observation text is the state. An
   * environment whose observations carry noise (a timestamp, a step counter) names the state without it.
   */
  stateKey?(observation: string): string;
  /** Releases resources (browsers, sub-processes); optional. */
  close?(): void | Promise<void>;
}
