import { createHash } from 'node:crypto';
import type { Trajectory, TrajectoryStep } from '../contracts/trajectory.js';

/**
 * The anchor state a step acted from (GiGPO's step groups): the environment's own key when it gave one
 * (`step.stateKey`), else a hash of the observation text, which is the state for environments whose
 * observations are exact (verl-agent groups ALFWorld steps by their observation text). Two steps have equal
 * keys exactly when their states (or observations) are equal.
 */
export function stateKeyOf(step: Pick<TrajectoryStep, 'observation' | 'stateKey'>): string {
  if (step.stateKey !== undefined) return `k:${step.stateKey}`;
  return `o:${createHash('sha256').update(step.observation).digest('base64url').slice(0, 22)}`;
}

/**
 * A trajectory's per-step rewards for step-level credit: the environment's reward of each step, the last step
 * carrying what the verified score adds to them, so they sum to the trajectory's reward (a verifier that
 * scores the answer, with environments that give no step reward, puts the whole score on the last step, as
 * verl-agent's ALFWorld manager does with its success reward). A trajectory without steps has none.
 */
export function stepRewardsOf(trajectory: Pick<Trajectory, 'steps' | 'reward'>): number[] {
  const rewards = trajectory.steps.map((s) => (Number.isFinite(s.reward) ? s.reward : 0));
  if (rewards.length === 0) return rewards;
  let sum = 0;
  for (const r of rewards) sum += r;
  const rest = trajectory.reward - sum;
  if (rest !== 0 && Number.isFinite(rest)) rewards[rewards.length - 1]! += rest;
  return rewards;
}
