import {
  type Environment,
  InvalidArgumentError,
  type StepResult,
  type Task,
  type Trajectory,
  type Verifier,
} from '@skillrl/core';

export interface QaEnvironmentOptions {
  /** What the agent sees after answering. Default `Answer received.` (the reward carries the judgement). */
  closingObservation?: string;
  /**
   * The step limit. Default 1. With tools it is the tool calls allowed plus the answer: tool calls the
   * runner executes (`read_file`, `web_search`…) take steps without reaching the environment, whose one
   * `step` is still the answer.
   */
  maxSteps?: number;
  /** What `reset()` shows. Default: the task's prompt. */
  opening?: string;
}

/**
 * Single-turn question answering as a one-step environment: `reset()` shows the prompt, the one `step` is the
 * answer (tool calls before it are executed by the runner, within `maxSteps`), its reward is the verifier's score and the episode ends. The verdict is in `info.verdict`. A step
 * after the end earns 0 and changes nothing until `reset()`.
 */
export function createQaEnvironment(
  task: Task,
  verifier: Verifier,
  options: QaEnvironmentOptions = {},
): Environment {
  let done = false;
  const maxSteps = options.maxSteps ?? 1;
  if (!(Number.isInteger(maxSteps) && maxSteps >= 1)) {
    throw new InvalidArgumentError('maxSteps', `expected an integer >= 1, got ${String(options.maxSteps)}`);
  }
  return {
    maxSteps,
    reset() {
      done = false;
      return options.opening ?? task.prompt;
    },
    async step(action: string): Promise<StepResult> {
      if (done) {
        return { observation: 'The episode is over; call reset() to answer again.', reward: 0, done: true };
      }
      done = true;
      const trajectory: Trajectory = {
        id: `${task.id}#answer`,
        taskId: task.id,
        family: task.family,
        condition: 0,
        steps: [{ index: 0, observation: task.prompt, action, reward: 0, done: true }],
        answer: action,
        reward: 0,
        verdict: { score: 0, passed: false },
      };
      const verdict = await verifier.verify(task, trajectory);
      return {
        observation: options.closingObservation ?? 'Answer received.',
        reward: verdict.score,
        done: true,
        info: { verdict },
      };
    },
  };
}
