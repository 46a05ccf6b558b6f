import type { Task } from './task.js';
import type { Trajectory } from './trajectory.js';

/** A verifier's judgement of one trajectory. */
export interface Verdict {
  /** In [0, 1]. */
  score: number;
  passed: boolean;
  reason?: string;
  details?: Record<string, unknown>;
}

/** A reward check. Verifiers are async so they can run code or call a judge model. */
export interface Verifier {
  name: string;
  verify(task: Task, trajectory: Trajectory): Promise<Verdict> | Verdict;
}
