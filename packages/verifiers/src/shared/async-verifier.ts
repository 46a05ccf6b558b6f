import type { Task, Trajectory, Verdict, Verifier } from '@skillrl/core';

/** Core's `Verifier`, narrowed to what every verifier here returns: always a promise. */
export interface AsyncVerifier extends Verifier {
  verify(task: Task, trajectory: Trajectory): Promise<Verdict>;
}
