import type { JsonValue, Task, Trajectory } from '@skillrl/core';

/** Options shared by the verifiers that compare the model's answer with the task's reference. */
export interface ReferenceOptions {
  /** Verifier name in verdicts and logs. */
  name?: string;
  /** Where the reference comes from. Default: `task.answer` (an array lists acceptable alternatives). */
  reference?: (task: Task) => JsonValue | undefined;
  /** Which text of the trajectory is judged. Default: `trajectory.answer`, else the last step's action. */
  extract?: (trajectory: Trajectory) => string;
  /** `passed` is `score >= threshold`. */
  threshold?: number;
}
