import type { Trajectory, TrajectoryStep } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { envVerdictMismatch } from './env-verdict-check.js';

function episode(
  id: string,
  last: Partial<TrajectoryStep>,
  verdict: { score: number; passed: boolean },
  error?: Trajectory['error'],
): Trajectory {
  const step: TrajectoryStep = { index: 0, observation: 'o', action: 'a', reward: 0, done: true, ...last };
  return {
    id,
    taskId: id,
    family: 'f',
    condition: 0,
    steps: [step],
    reward: verdict.score,
    verdict,
    ...(error ? { error } : {}),
  };
}

const zero = { score: 0, passed: false };
const one = { score: 1, passed: true };

describe('envVerdictMismatch', () => {
  it('counts episodes the environment won (info.env.won or success true, or reward >= 1) that scored 0', () => {
    const found = envVerdictMismatch([
      episode('a', { info: { env: { won: true } } }, zero),
      episode('b', { info: { env: { success: true } } }, zero),
      episode('c', { reward: 1 }, zero),
      episode('d', { reward: 1, info: { env: { won: true } } }, one),
      // Not a win: a truthy flag is not `true`, a flag at the top of step.info is the agent's, reward < 1.
      episode('e', { info: { env: { won: 'yes' } } }, zero),
      episode('f', { info: { won: true } }, zero),
      episode('g', { reward: 0.5 }, zero),
    ]);
    expect(found).toMatchObject({ episodes: 3, wonByEnv: 4 });
    expect(found?.message).toContain('3 of the 4 episodes the environment reported won were scored 0');
    expect(found?.message).toContain('e.g. a:');
    expect(found?.message).toContain('trajectory.steps.at(-1)?.info?.env');
  });

  it('reads the last step only, leaves partial credit and errors before the verdict out, counts a throwing verifier', () => {
    const earlier: Trajectory = {
      ...episode('h', { index: 1 }, zero),
      steps: [
        { index: 0, observation: 'o', action: 'a', reward: 1, done: false, info: { env: { won: true } } },
        { index: 1, observation: 'o', action: 'b', reward: 0, done: true },
      ],
    };
    const found = envVerdictMismatch([
      earlier,
      episode('i', { reward: 1 }, { score: 0.5, passed: false }),
      episode('j', { reward: 1 }, zero, { code: 'model', message: 'gone' }),
      episode('k', { reward: 1 }, zero, { code: 'verifier', message: 'TypeError' }),
    ]);
    expect(found).toMatchObject({ episodes: 1, wonByEnv: 2 });
    expect(found?.message).toContain('e.g. k:');
  });

  it('is undefined when every won episode passed, or none was won', () => {
    expect(envVerdictMismatch([episode('a', { reward: 1 }, one), episode('b', {}, zero)])).toBeUndefined();
    expect(envVerdictMismatch([])).toBeUndefined();
  });
});
