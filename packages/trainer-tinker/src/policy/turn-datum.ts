import { type ChatTurnRecord, chatTurnsOf, InvalidArgumentError, type Trajectory } from '@skillrl/core';
import { type Datum, modelInput, tensor } from '../client/tinker-types.js';

/** One sampled turn: the prompt as the sampler saw it, and what it wrote with the log-probs it gave. */
export interface SampledTurn {
  promptTokens: readonly number[];
  completionTokens: readonly number[];
  completionLogProbs: readonly number[];
}

/**
 * A turn as a Tinker datum, in the next-token alignment of Tinker's losses (position i of `model_input`
 * predicts `target_tokens[i]`): the full sequence is prompt + completion, the input all but its last token, the
 * targets all but its first. The completion's positions carry the sampler's log-probs and the advantage; the
 * prompt's carry zeros, so the policy-gradient losses ignore them.
 */
export function turnDatum(turn: SampledTurn, advantage: number): Datum {
  const { promptTokens: prompt, completionTokens: completion, completionLogProbs: logProbs } = turn;
  if (prompt.length === 0) throw new InvalidArgumentError('turn.promptTokens', 'the prompt is empty');
  if (completion.length === 0)
    throw new InvalidArgumentError('turn.completionTokens', 'the completion is empty');
  if (logProbs.length !== completion.length) {
    throw new InvalidArgumentError(
      'turn.completionLogProbs',
      `expected one log-prob per completion token (${completion.length}), got ${logProbs.length}`,
    );
  }
  const full = [...prompt, ...completion];
  const n = full.length - 1;
  const first = prompt.length - 1;
  const sampling = new Array<number>(n).fill(0);
  const advantages = new Array<number>(n).fill(0);
  for (let j = first; j < n; j++) {
    sampling[j] = logProbs[j - first] as number;
    advantages[j] = advantage;
  }
  return {
    model_input: modelInput(full.slice(0, n)),
    loss_fn_inputs: {
      target_tokens: tensor(full.slice(1), 'int64'),
      logprobs: tensor(sampling, 'float32'),
      advantages: tensor(advantages, 'float32'),
    },
  };
}

/**
 * The sampled turns of a trajectory the Tinker agent wrote: each step's completion tokens and log-probs, and
 * its prompt's tokens from the step's chat record (`step.info.chat`, delta-coded; expanded by core's
 * `chatTurnsOf`). A step without them (another agent's, an episode that failed before sampling) throws,
 * naming it.
 */
export function trajectoryTurns(trajectory: Trajectory): SampledTurn[] {
  return trajectoryStepTurns(trajectory).map((t) => t.turn);
}

/**
 * `trajectoryTurns` with the index of the step each turn is (a step the model did not write has no turn):
 * what a step-level advantage of that step is looked up by.
 */
export function trajectoryStepTurns(trajectory: Trajectory): { step: number; turn: SampledTurn }[] {
  const turns = chatTurnsOf(trajectory.steps);
  const out: { step: number; turn: SampledTurn }[] = [];
  trajectory.steps.forEach((step, k) => {
    const record = step.info?.chat as ChatTurnRecord | undefined;
    if (!step.tokenIds || step.tokenIds.length === 0) {
      // An action the model did not write (none was sampled: an error before the reply) trains nothing.
      if (!record) return;
    }
    const prompt = turns[k]?.promptTokenIds;
    if (!prompt || !step.tokenIds || !step.logProbs) {
      throw new InvalidArgumentError(
        `trajectories["${trajectory.id}"].steps[${k}]`,
        'has no prompt token ids, completion token ids or log-probs: the tinker trainer trains the tinker agent, which records them',
      );
    }
    out.push({
      step: k,
      turn: { promptTokens: prompt, completionTokens: step.tokenIds, completionLogProbs: step.logProbs },
    });
  });
  return out;
}
