import { checkSchema, type Trajectory } from '@skillrl/core';

/** Problems quoted in the error; a result that is wrong everywhere would otherwise fill the screen. */
const SHOWN = 5;

/**
 * A job's result as the session may store it: the trajectory of `episodeId`, valid against core's
 * `trajectory` schema. Whatever a worker sent (one of another version, a job some other program answered)
 * is checked before anything of it reaches rollouts.jsonl. Returns the trajectory, or what is wrong.
 */
export function checkJobResult(
  value: unknown,
  episodeId: string,
): { trajectory: Trajectory } | { problem: string } {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { problem: `not JSON: ${value.slice(0, 80)}` };
    }
  }
  const issues = checkSchema('trajectory', parsed);
  if (issues.length > 0) {
    const listed = issues.slice(0, SHOWN).map((i) => `${i.path}: ${i.message}`);
    if (issues.length > SHOWN) listed.push(`${issues.length - SHOWN} more`);
    return { problem: `core's trajectory schema: ${listed.join('; ')}` };
  }
  const trajectory = parsed as Trajectory;
  if (trajectory.id !== episodeId) return { problem: `the trajectory of rollout "${trajectory.id}"` };
  return { trajectory };
}
