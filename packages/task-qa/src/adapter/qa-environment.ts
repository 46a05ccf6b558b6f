import type { Environment, StepResult, Task, Trajectory, Verifier } from '@skillrl/core';

export interface QaEnvironmentOptions {
  /** What the agent sees after answering. Default `Answer received.` (the reward carries the judgement). */
  closingObservation?: string;
}

/**
 * Single-turn question answering as a one-step environment: `reset()` shows the prompt, the one `step` is the
 * answer, its reward is the verifier's score and the episode ends. The verdict is in `info.verdict`. A step
 * after the end earns 0 and changes nothing until `reset()`.
 */
export function createQaEnvironment(
  task: Task,
  verifier: Verifier,
  options: QaEnvironmentOptions = {},
): Environment {
  let done = false;
  return {
    maxSteps: 1,
    reset() {
      done = false;
      return task.prompt;
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
