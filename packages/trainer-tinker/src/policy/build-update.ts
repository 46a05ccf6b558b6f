import { InvalidArgumentError } from '@skillrl/core';
import type { Datum } from '../client/tinker-types.js';
import type { TinkerPolicy } from './tinker-policy.js';
import type { TinkerUpdateSettings } from './trainer-options.js';
import { type SampledTurn, turnDatum } from './turn-datum.js';

/** One sampled turn to train, its trajectory's advantage, and which trajectory it belongs to. */
export interface UpdateTurn {
  turn: SampledTurn;
  advantage: number;
  /** Turns of one trajectory share it: per-trajectory normalisation counts their completion tokens together. */
  trajectory: number;
}

/**
 * The datums of one update, with the advantages shaped as the settings ask, in this order:
 *
 * 1. One datum per turn (`turnDatum`: the trajectory's advantage on every completion token, 0 on the prompt's).
 *    Without a KL penalty, turns of zero-advantage trajectories carry no gradient and are dropped.
 * 2. KL penalty (`klPenaltyCoef` > 0), as the Tinker cookbook's `incorporate_kl_penalty`: the base model's
 *    log-prob of each sampled token (`TinkerPolicy.baseLogProbs`), `kl_t = logp_sampler_t − logp_base_t` on
 *    completion tokens, and `adv_t += coef · (mean_kl − kl_t)` with the mean over every completion token of
 *    the update (the cookbook's centring: the batch's mean advantage is unchanged). No discounting.
 * 3. Per-trajectory normalisation (`normalizePerTrajectory`): every per-token advantage of a trajectory,
 *    KL term included, divided by its number of completion tokens (all its turns).
 * 4. `dro`: its quadratic term `½β(logp − logp_sampler)²` would see every position, and the prompt's carry a
 *    sampling log-prob of 0 — Tinker's losses take no per-token mask. So the positions with advantage 0 (the
 *    prompt's) get the learner's own log-prob there, from one `forward` per chunk: their loss and gradient are
 *    then exactly 0 (weighted 0), and the trained tokens keep the sampler's log-probs.
 */
export async function buildUpdate(
  policy: TinkerPolicy,
  turns: readonly UpdateTurn[],
  settings: TinkerUpdateSettings,
  signal?: AbortSignal,
): Promise<{ datums: Datum[]; metrics: Record<string, number> }> {
  const kl = settings.klPenaltyCoef > 0;
  const completionTokens = new Map<number, number>();
  for (const t of turns) {
    completionTokens.set(
      t.trajectory,
      (completionTokens.get(t.trajectory) ?? 0) + t.turn.completionTokens.length,
    );
  }
  const kept = turns.filter((t) => t.turn.completionTokens.length > 0 && (kl || t.advantage !== 0));
  const datums = kept.map((t) => turnDatum(t.turn, t.advantage));
  const metrics: Record<string, number> = {};
  // Datum positions [start, end) are the completion's (next-token alignment: position j predicts token j + 1).
  const span = (i: number) => {
    const n = datums[i]?.loss_fn_inputs.target_tokens?.data.length ?? 0;
    return { start: n - (kept[i]?.turn.completionTokens.length ?? 0), end: n };
  };
  const advantagesOf = (i: number) => (datums[i] as Datum).loss_fn_inputs.advantages?.data as number[];
  const samplingOf = (i: number) => (datums[i] as Datum).loss_fn_inputs.logprobs?.data as number[];

  if (kl && datums.length > 0) {
    const base = await policy.baseLogProbs(
      kept.map((t) => [...t.turn.promptTokens, ...t.turn.completionTokens]),
      signal,
    );
    const diffs: number[][] = [];
    let sum = 0;
    let count = 0;
    datums.forEach((_, i) => {
      const { start, end } = span(i);
      const sampling = samplingOf(i);
      const d: number[] = [];
      for (let j = start; j < end; j++) {
        const ref = base[i]?.[j];
        if (ref === undefined || !Number.isFinite(ref)) {
          throw new InvalidArgumentError(
            'prompt_logprobs',
            `the base model gave no finite log-prob for token ${j + 1} of datum ${i}, which the KL penalty needs`,
          );
        }
        const diff = (sampling[j] as number) - ref;
        d.push(diff);
        sum += diff;
        count += 1;
      }
      diffs.push(d);
    });
    const mean = count > 0 ? sum / count : 0;
    datums.forEach((_, i) => {
      const { start, end } = span(i);
      const adv = advantagesOf(i);
      for (let j = start; j < end; j++) {
        adv[j] = (adv[j] as number) + settings.klPenaltyCoef * (mean - (diffs[i]?.[j - start] as number));
      }
    });
    // The mean log-prob of the sampled tokens under the policy minus under the base model: an estimate of
    // KL(policy ‖ base), 0 while the policy is the base model.
    metrics.kl_policy_base = mean;
    metrics.kl_penalty_coef = settings.klPenaltyCoef;
  }

  if (settings.normalizePerTrajectory) {
    datums.forEach((_, i) => {
      const tokens = completionTokens.get((kept[i] as UpdateTurn).trajectory) ?? 1;
      const { start, end } = span(i);
      const adv = advantagesOf(i);
      for (let j = start; j < end; j++) adv[j] = (adv[j] as number) / tokens;
    });
  }

  if (settings.loss === 'dro' && datums.length > 0) {
    const learner = await policy.learnerLogProbs(datums, {
      loss: settings.loss,
      chunkSize: settings.chunkSize,
      ...(signal ? { signal } : {}),
    });
    let masked = 0;
    datums.forEach((_, i) => {
      const adv = advantagesOf(i);
      const sampling = samplingOf(i);
      const own = learner[i] ?? [];
      for (let j = 0; j < adv.length; j++) {
        if (adv[j] !== 0) continue;
        sampling[j] = own[j] ?? 0;
        masked += 1;
      }
    });
    metrics.dro_masked_positions = masked;
  }
  return { datums, metrics };
}
