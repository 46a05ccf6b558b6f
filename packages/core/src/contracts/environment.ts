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
  /** Releases resources (browsers, sub-processes); optional. */
  close?(): void | Promise<void>;
}
