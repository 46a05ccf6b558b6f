import { environmentWon, type Trajectory } from '@skillrl/core';
import type { RunSession } from './run-session.js';

/** summary.json's `envVerdictMismatch`: present only when some episode the environment won scored 0. */
export interface EnvVerdictMismatch {
  /** Episodes the environment reported won that the verifier scored 0 (not passed, score 0). */
  episodes: number;
  /** Episodes the environment reported won, in all. */
  wonByEnv: number;
  /** The same in words, with an example rollout id and where to look. */
  message: string;
}

/**
 * Counts the episodes whose last step the environment reported won (`environmentWon` of @skillrl/core, the kit's rule) while the verdict
 * scored them 0 (`passed` false and `score` 0): the mark of a verifier that reads the environment's info
 * where runs never put it (`step.info.won` for `step.info.env.won`) or `trajectory.reward` (0 until the
 * runner sets it from the verdict). A verifier stricter than the environment still gives partial credit
 * and is not counted. Episodes that ended in an error before the verdict (model, environment, tool) are
 * left out — their verdict is the runner's, and the rollout account counts them — but a verifier that threw
 * is the verifier's 0 and counts. Returns undefined when no episode is such.
 */
export function envVerdictMismatch(trajectories: Iterable<Trajectory>): EnvVerdictMismatch | undefined {
  let wonByEnv = 0;
  let episodes = 0;
  let example: Trajectory | undefined;
  for (const t of trajectories) {
    if (t.error && t.error.code !== 'verifier') continue;
    if (!environmentWon(t)) continue;
    wonByEnv++;
    if (t.verdict.passed || t.verdict.score !== 0) continue;
    episodes++;
    example ??= t;
  }
  if (episodes === 0 || !example) return undefined;
  const last = example.steps.at(-1);
  const message =
    `${episodes} of the ${wonByEnv} episodes the environment reported won were scored 0 by the verifier ` +
    `(e.g. ${example.id}: last step reward ${last?.reward}, info.env ${JSON.stringify(last?.info?.env ?? null)}, ` +
    `verdict ${JSON.stringify({ score: example.verdict.score, passed: example.verdict.passed })}). ` +
    "A verifier reads the environment's info at trajectory.steps.at(-1)?.info?.env, not info, and " +
    "trajectory.reward is 0 until the verdict sets it; run @skillrl/testkit's describeAdapterConformance on the adapter.";
  return { episodes, wonByEnv, message };
}

/**
 * The run's check before summary.json: every rollout on disk (a resumed run's whole history) through
 * `envVerdictMismatch`; a mismatch is said through `onWarning` (the CLI prints `warning: …`) and returned as
 * `{ envVerdictMismatch }` to spread into the summary, else `{}`.
 */
export function envVerdictSummary(
  session: RunSession,
  onWarning: ((message: string) => void) | undefined,
): { envVerdictMismatch?: EnvVerdictMismatch } {
  // An id stored twice is a rollout run again after its model call failed: that first record is skipped.
  const mismatch = envVerdictMismatch(session.store.iterate<Trajectory>('rollouts'));
  if (!mismatch) return {};
  onWarning?.(mismatch.message);
  return { envVerdictMismatch: mismatch };
}
