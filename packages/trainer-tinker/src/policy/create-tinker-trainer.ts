import {
  type Agent,
  InvalidArgumentError,
  type PolicyTrainer,
  rolloutErrored,
  type TrainBatch,
} from '@skillrl/core';
import { buildUpdate, type UpdateTurn } from './build-update.js';
import { isTinkerAgent } from './create-tinker-agent.js';
import { assertOnPolicySampling } from './on-policy-sampling.js';
import type { TinkerPolicy } from './tinker-policy.js';
import { resolveTrainerOptions, type TinkerTrainerOptions } from './trainer-options.js';
import { trajectoryStepTurns } from './turn-datum.js';

export interface TinkerTrainer extends PolicyTrainer {
  readonly updatesPolicy: true;
  readonly policy: TinkerPolicy;
  toJSON(): { format: 'skillrl.tinker-trainer'; updates: number };
  restore(state: unknown): void;
}

/**
 * SKILLC's policy trainer on Tinker: each `update` turns the step's trajectories and advantages into
 * datums — one per sampled turn, the trajectory's advantage on every completion token (`turnDatum`), or the
 * turn's own step's advantage when the batch carries step-level credit (`batch.stepAdvantages`, GiGPO's) — and
 * takes one update of the agent's policy with the configured loss (`importance_sampling`, `ppo`, `cispo`,
 * `dro`): `forward_backward`, `optim_step`, then the new sampler weights, so the next step samples from them
 * (strictly on-policy, one update per step). Turns of trajectories whose advantage is 0 carry no gradient for
 * these losses (on-policy, the ratio is 1) and are not sent, unless a KL penalty gives their tokens advantages
 * of their own (`buildUpdate` shapes the advantages: KL penalty, per-trajectory normalisation, dro's mask).
 * A trajectory that ended in an error (`trajectory.error`) is never trained: core's errored-rollout policy
 * leaves it out, and `skipped_error` counts it.
 * The agent must be the Tinker agent: its turns record the prompt and completion tokens and log-probs, and it
 * must sample from the policy's own distribution (temperature 1, no top-p or top-k: refused otherwise).
 *
 * Why a turn, not an episode, is one datum: the agent re-renders its transcript every turn (the admissible
 * actions move to the newest observation, a history window drops old steps, a chat template may rewrite
 * earlier turns, as Qwen3's drops past reasoning), so turn k+1's prompt is in general not turn k's prompt
 * plus its reply. One datum per turn trains each completion on exactly the context the sampler saw; the cost
 * is the shared prefix sent again per turn.
 */
export function createTinkerTrainer(agent: Agent, options: TinkerTrainerOptions = {}): TinkerTrainer {
  if (!isTinkerAgent(agent)) {
    throw new InvalidArgumentError(
      'agent',
      'the tinker trainer trains the tinker agent (agent: tinker), whose turns record the tokens and log-probs it needs',
    );
  }
  const settings = resolveTrainerOptions(options);
  // Refused here, before any rollout, rather than at the first sample.
  assertOnPolicySampling(agent.sampling, 'agent');
  const policy = agent.policy;
  policy.trainable = true;
  return {
    updatesPolicy: true,
    policy,
    async update(batch: TrainBatch) {
      const { trajectories, advantages, stepAdvantages } = batch;
      if (advantages.length !== trajectories.length) {
        throw new InvalidArgumentError(
          'batch.advantages',
          `expected ${trajectories.length} advantages, got ${advantages.length}`,
        );
      }
      if (stepAdvantages !== undefined && stepAdvantages.length !== trajectories.length) {
        throw new InvalidArgumentError(
          'batch.stepAdvantages',
          `expected one entry per trajectory (${trajectories.length}), got ${stepAdvantages.length}`,
        );
      }
      const items: UpdateTurn[] = [];
      let zero = 0;
      let turns = 0;
      let skippedError = 0;
      let perStep = 0;
      trajectories.forEach((trajectory, i) => {
        // An errored rollout measured nothing about the policy (its reward is a placeholder): its sampled
        // turns are not trained, whatever advantage it was given, and it is counted (as the tfjs trainer does).
        if (rolloutErrored(trajectory)) {
          skippedError += 1;
          return;
        }
        const advantage = Number(advantages[i]);
        if (!Number.isFinite(advantage))
          throw new InvalidArgumentError(
            `batch.advantages[${i}]`,
            `expected a finite number, got ${advantage}`,
          );
        // Step-level credit (GiGPO) when the estimator gave it for this trajectory; else its advantage on
        // every turn.
        const steps = stepAdvantages?.[i];
        if (steps !== undefined && steps !== null) {
          if (steps.length !== trajectory.steps.length) {
            throw new InvalidArgumentError(
              `batch.stepAdvantages[${i}]`,
              `expected one advantage per step of trajectory "${trajectory.id}" (${trajectory.steps.length}), got ${steps.length}`,
            );
          }
          perStep += 1;
        }
        const sampled = trajectoryStepTurns(trajectory);
        turns += sampled.length;
        let nonZero = false;
        for (const { step, turn } of sampled) {
          const value = steps ? Number(steps[step]) : advantage;
          if (!Number.isFinite(value)) {
            throw new InvalidArgumentError(
              `batch.stepAdvantages[${i}][${step}]`,
              `expected a finite number, got ${value}`,
            );
          }
          if (value !== 0) nonZero = true;
          items.push({ turn, advantage: value, trajectory: i });
        }
        if (!nonZero) zero += 1;
      });
      const built = await buildUpdate(policy, items, settings);
      const metrics = await policy.train(built.datums, settings);
      return {
        ...metrics,
        ...built.metrics,
        turns,
        zero_advantage: zero,
        trajectories: trajectories.length,
        skipped_error: skippedError,
        step_advantage_trajectories: perStep,
      };
    },
    toJSON: () => ({ format: 'skillrl.tinker-trainer', updates: policy.updates }),
    restore(state: unknown) {
      const s = state as { format?: unknown; updates?: unknown } | null;
      if (s?.format !== 'skillrl.tinker-trainer')
        throw new InvalidArgumentError('checkpoint', 'expected a skillrl.tinker-trainer state');
      // The policy's own state (restored with the agent) is the truth; the two must agree.
      if (s.updates !== policy.updates) {
        throw new InvalidArgumentError(
          'checkpoint',
          `the trainer's checkpoint is at update ${String(s.updates)}, the agent's at ${policy.updates}`,
        );
      }
    },
  };
}
