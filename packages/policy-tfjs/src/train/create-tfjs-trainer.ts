import {
  InvalidArgumentError,
  type PolicyTrainer,
  type TrainBatch,
  type TrainMetrics,
  type Trajectory,
  throwOnOptionIssues,
} from '@skillrl/core';
import {
  type AggregationMode,
  type BackendChoice,
  ensureBackend,
  initBackend,
  policyGradientStep,
} from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import type { SkillReadingAgent } from '../agent/create-skill-reading-agent.js';
import { type DecisionBatch, packDecisionBatch } from '../model/decision-batch.js';
import type { DecisionRecord } from '../model/decision-record.js';
import { type PackedBatch, packBatch, slicePackedBatch } from '../model/pack-batch.js';
import { type AgentParameters, copyParameters } from '../model/parameters.js';
import { createTfPolicy, type TfPolicy } from '../model/tf-policy.js';
import { forwardDecisions, skillReads } from '../model/typed-network.js';
import { checkTfjsTrainerOptions } from './check-tfjs-trainer-options.js';
import {
  createTrainedWeights,
  handGradientStep,
  type TrainedName,
  type TrainedWeights,
} from './hand-gradient-step.js';
import {
  checkLearningRateSchedule,
  type LearningRateSchedule,
  learningRateAt,
} from './learning-rate-schedule.js';

// tfjs's Adam reads its rate on every step but keeps the field protected; a schedule sets it per update.
type AdjustableOptimizer = tf.Optimizer & { learningRate: number };

/** A core `TrainBatch`, optionally with one advantage per step instead of one per trajectory. */
export interface TfjsTrainBatch extends TrainBatch {
  /** Per trajectory, one advantage per step (e.g. from per-step rewards); overrides `advantages` for it. */
  stepAdvantages?: readonly (ArrayLike<number> | undefined)[];
}

export interface TfjsTrainerOptions {
  /** Policy loss registered in tensor-ops (default `vanilla`: PPO's clipped surrogate). */
  loss?: string;
  /** KL penalty to the frozen reference copy, e.g. `{ kind: 'k3', coef: 0.01 }` (default none). */
  kl?: { kind: string; coef: number };
  /** Loss aggregation over the [B, T] action-step matrix (default `token-mean`). */
  aggregation?: AggregationMode;
  /** Adam learning rate (default 0.01); with `lrSchedule`, its peak. */
  lr?: number;
  /**
   * Warm-up and decay of the learning rate over the run's updates, e.g.
   * `{ updates: 360, warmup: 18, decay: 'cosine', minLrRatio: 0.1 }` (default none: lr throughout). The
   * position is the count of `update` calls, so a run resumed by replaying its updates lands on the same lr.
   */
  lrSchedule?: LearningRateSchedule;
  clipLow?: number;
  clipHigh?: number;
  dualClip?: number | false;
  /** Clip the global gradient norm (default 1). */
  maxGradNorm?: number;
  /**
   * Decoupled weight decay (AdamW's): after every optimiser step each weight is multiplied by
   * 1 − lr·decay, lr being the step's rate. A number decays every trained weight; an object decays only the
   * weights it names, e.g. `{ featureWeights: 0.2 }` (default none).
   */
  weightDecay?: number | Partial<Record<TrainedName, number>>;
  entropyCoef?: number;
  /** Trajectories per forward/backward pass (default: the whole batch). */
  microBatchSize?: number;
  /** Passes over the batch per `update`, ratios against the sampling log-probs (default 1). */
  epochs?: number;
  /**
   * Optimiser steps per pass: the batch's trajectories are dealt round-robin into this many mini-batches
   * and each takes its own clipped step, as PPO's (and verl's `ppo_mini_batch_size`) do (default 1: one step
   * on the whole batch). More steps from the same rollouts at about the same compute.
   */
  miniBatches?: number;
  /** Episodes that hit the step limit without finishing: train on them (default) or skip them. */
  truncated?: 'train' | 'skip';
  /**
   * Backend to put first (default: the one already chosen in this process, by the agent or the program;
   * else tensor-ops' order, tfjs-node-gpu → tfjs-node → wasm → cpu).
   */
  backend?: BackendChoice;
  /** Reference weights for the KL term (default: the agent's weights when the trainer is created). */
  reference?: AgentParameters;
  /**
   * Also train the skill reader's strengths β, τ, κ, μ (default false). Frozen, the with/without-skill gap
   * can close only by the skill-free path getting better; trained, the policy can close it the cheap way,
   * by reading the skill less (measured: see the README's diagnosis).
   */
  trainPrior?: boolean;
  /**
   * How the network's gradient is taken (default `hand` with the prior frozen, `tfjs` with `trainPrior`).
   * `hand`: the forward pass and its gradient written out on typed arrays (`forwardDecisions`,
   * `backwardDecisions`), the loss's gradient with respect to the log-probs from tensor-ops
   * (`policyLossGradients`), the update by tfjs's Adam; the reference pass for the KL term on typed arrays
   * too. `tfjs`: `tf.variableGrads` through `createTfPolicy` (the autodiff twin), as tensor-ops'
   * `policyGradientStep` does for any model. Both take the same step (tested to float32 precision).
   */
  gradients?: 'hand' | 'tfjs';
}

export interface TfjsTrainer extends PolicyTrainer {
  update(batch: TfjsTrainBatch): Promise<TrainMetrics>;
  /** Log-probs of each trajectory's recorded actions under the current weights, computed with tfjs. */
  logProbs(trajectories: readonly Trajectory[]): Promise<number[][]>;
  /** The frozen reference weights. */
  readonly reference: AgentParameters;
  /** Releases the tfjs variables and optimiser slots. */
  dispose(): void;
}

interface Row {
  index: number;
  records: (DecisionRecord | null)[];
  advantages: number[];
  behaviour: (number | undefined)[];
}

function truncated(t: Trajectory): boolean {
  return t.steps.length > 0 && !t.steps.some((s) => s.done);
}

/**
 * A `PolicyTrainer` for a `SkillReadingAgent`: rebuilds each trajectory's decisions from the records the
 * agent stored on its steps, recomputes the chosen actions' log-probs under the current weights (one
 * "token" per action step, a [B, T] matrix with a mask) and takes tensor-ops' clipped policy-gradient step,
 * with a KL term against a frozen copy of the starting weights: by default with the network's gradient
 * written out on typed arrays (`handGradientStep`), with `gradients: 'tfjs'` (or `trainPrior`) by autodiff
 * through `createTfPolicy`. Errored trajectories, trajectories without any usable step and non-finite
 * advantages are skipped and counted, never thrown on.
 */
export function createTfjsTrainer(agent: SkillReadingAgent, options: TfjsTrainerOptions = {}): TfjsTrainer {
  throwOnOptionIssues(checkTfjsTrainerOptions(options, 'options'), 'tfjs trainer');
  const lr = options.lr ?? 0.01;
  if (!(lr > 0)) throw new InvalidArgumentError('options.lr', `expected a number > 0, got ${lr}`);
  const schedule = options.lrSchedule;
  if (schedule) checkLearningRateSchedule(schedule, 'options.lrSchedule');
  // Every `update` call counts, the empty ones too, so the schedule's position is the training step's.
  let updates = 0;
  const decayOf = (name: TrainedName): number => {
    const wd = options.weightDecay;
    return typeof wd === 'number' ? wd : (wd?.[name] ?? 0);
  };
  const decays = options.weightDecay !== undefined;
  const epochs = options.epochs ?? 1;
  if (!Number.isInteger(epochs) || epochs < 1) {
    throw new InvalidArgumentError('options.epochs', `expected an integer >= 1, got ${epochs}`);
  }
  const miniBatches = options.miniBatches ?? 1;
  if (!Number.isInteger(miniBatches) || miniBatches < 1) {
    throw new InvalidArgumentError('options.miniBatches', `expected an integer >= 1, got ${miniBatches}`);
  }
  const gradients = options.gradients ?? (options.trainPrior ? 'tfjs' : 'hand');
  if (gradients !== 'hand' && gradients !== 'tfjs') {
    throw new InvalidArgumentError(
      'options.gradients',
      `expected 'hand' or 'tfjs', got ${String(gradients)}`,
    );
  }
  if (gradients === 'hand' && options.trainPrior) {
    throw new InvalidArgumentError(
      'options.gradients',
      "the hand-written gradient keeps the skill reader's strengths frozen: use gradients: 'tfjs' with trainPrior",
    );
  }
  const reference = copyParameters(options.reference ?? agent.parameters);
  let policy: TfPolicy | undefined;
  let refPolicy: TfPolicy | undefined;
  let trained: TrainedWeights | undefined;
  let optimizer: tf.Optimizer | undefined;
  // The agent's weights each copy last took (a replaced `agent.parameters` means: train from those).
  let policySynced: AgentParameters | undefined;
  let trainedSynced: AgentParameters | undefined;

  const ready = async (): Promise<tf.Optimizer> => {
    // Without a backend of its own it takes the one the agent (or the program) chose: one choice a process.
    await (options.backend ? initBackend({ prefer: options.backend }) : ensureBackend());
    optimizer ??= tf.train.adam(lr);
    return optimizer;
  };
  // The tfjs twin: autodiff steps and `logProbs`.
  const tfPolicy = (): TfPolicy => {
    if (!policy) {
      policy = createTfPolicy(agent.parameters, agent.config, agent.vocabulary.size, { name: 'trainee' });
    } else if (policySynced !== agent.parameters) {
      policy.assign(agent.parameters);
    }
    policySynced = agent.parameters;
    return policy;
  };
  // The hand-gradient steps' weights for the optimiser.
  const trainedWeights = (): TrainedWeights => {
    if (!trained) trained = createTrainedWeights(agent.parameters);
    else if (trainedSynced !== agent.parameters) trained.assign(agent.parameters);
    trainedSynced = agent.parameters;
    return trained;
  };

  // The network's record of a step (stored v2, or v1 as it is), if it is one of this agent's choices.
  const recordOf = (step: Trajectory['steps'][number]): DecisionRecord | null => {
    if (step.invalid) return null;
    const r = agent.decisionRecord(step.info?.policy);
    return r && r.candidates[r.chosen] === step.action ? r : null;
  };
  const memoriesOf = (t: Trajectory): number[][] => {
    const actions = t.steps.map((s) => s.action);
    return agent.episodeMemories(actions);
  };

  const run = async (p: TfPolicy, packed: PackedBatch): Promise<Float32Array> => {
    const out = p.logProbs(packed);
    const values = (await out.logProbs.data()) as Float32Array;
    out.logProbs.dispose();
    out.entropy.dispose();
    return values;
  };

  return {
    reference,
    async logProbs(trajectories) {
      await ready();
      const p = tfPolicy();
      const rows = trajectories.map((t) => t.steps.map(recordOf));
      const packed = packBatch(rows, {
        vocabularySize: agent.vocabulary.size,
        memories: trajectories.map(memoriesOf),
      });
      const values = await run(p, packed);
      return rows.map((r, b) => r.map((_, t) => values[b * packed.T + t] as number));
    },
    async update(batch) {
      const started = performance.now();
      const rate = schedule ? learningRateAt(lr, schedule, updates) : lr;
      updates += 1;
      const { trajectories, advantages } = batch;
      if (advantages.length !== trajectories.length) {
        throw new InvalidArgumentError(
          'batch.advantages',
          `expected one advantage per trajectory (${trajectories.length}), got ${advantages.length}`,
        );
      }
      const counts = { skipped_error: 0, skipped_invalid: 0, skipped_advantage: 0, skipped_truncated: 0 };
      let truncatedEpisodes = 0;
      let maskedSteps = 0;
      const rows: Row[] = [];
      trajectories.forEach((t, index) => {
        if (t.error) {
          counts.skipped_error += 1;
          return;
        }
        if (truncated(t)) {
          truncatedEpisodes += 1;
          if (options.truncated === 'skip') {
            counts.skipped_truncated += 1;
            return;
          }
        }
        const records = t.steps.map(recordOf);
        maskedSteps += records.filter((r) => r === null).length;
        if (!records.some((r) => r !== null)) {
          counts.skipped_invalid += 1;
          return;
        }
        const perStep = batch.stepAdvantages?.[index];
        const adv = t.steps.map((_, s) => (perStep ? Number(perStep[s]) : Number(advantages[index])));
        if (!adv.every(Number.isFinite)) {
          counts.skipped_advantage += 1;
          return;
        }
        rows.push({ index, records, advantages: adv, behaviour: t.steps.map((s) => s.logProb) });
      });
      const base = {
        episodes: rows.length,
        ...counts,
        truncated_episodes: truncatedEpisodes,
        masked_steps: maskedSteps,
        lr: rate,
      };
      if (rows.length === 0) return { ...base, loss: 0, pg_loss: 0, step_ms: performance.now() - started };

      const opt = await ready();
      (opt as AdjustableOptimizer).learningRate = rate;
      const packStarted = performance.now();
      // Dealt round-robin, then laid out mini-batch after mini-batch so each one is a contiguous slice.
      const parts = Math.min(miniBatches, rows.length);
      const dealt = Array.from({ length: parts }, (_, m) => rows.filter((_, i) => i % parts === m));
      const bounds = [0];
      for (const part of dealt) bounds.push((bounds.at(-1) as number) + part.length);
      rows.splice(0, rows.length, ...dealt.flat());
      // The memory is not in the records: rebuilt from each trajectory's earlier actions.
      const memories = rows.map((r) => memoriesOf(trajectories[r.index] as Trajectory));
      // One width T for every mini-batch: the `-norm` aggregations divide by it.
      const T = Math.max(1, ...rows.map((r) => r.records.length));
      const mask = rows.map((r) => Array.from({ length: T }, (_, t) => (r.records[t] ? 1 : 0)));
      const adv = rows.map((r) =>
        Array.from({ length: T }, (_, t) => (r.records[t] ? (r.advantages[t] ?? 0) : 0)),
      );
      // Ratios are taken against the log-probs the agent sampled with; without them, on-policy.
      const hasBehaviour = rows.every((r) =>
        r.records.every((rec, t) => !rec || Number.isFinite(r.behaviour[t])),
      );
      const old = hasBehaviour
        ? rows.map((r) =>
            Array.from({ length: T }, (_, t) => (r.records[t] ? (r.behaviour[t] as number) : 0)),
          )
        : undefined;
      const lossOptions = {
        maxGradNorm: options.maxGradNorm ?? 1,
        ...(options.loss !== undefined && { loss: options.loss }),
        ...(options.aggregation !== undefined && { aggregation: options.aggregation }),
        ...(options.kl && { kl: options.kl }),
        ...(options.clipLow !== undefined && { clipLow: options.clipLow }),
        ...(options.clipHigh !== undefined && { clipHigh: options.clipHigh }),
        ...(options.dualClip !== undefined && { dualClip: options.dualClip }),
        ...(options.entropyCoef !== undefined && { entropyCoef: options.entropyCoef }),
        ...(options.microBatchSize !== undefined && { microBatchSize: options.microBatchSize }),
      };
      let metrics: TrainMetrics = {};
      let packMs: number;
      let refMs: number;
      let gradMs: number;

      if (gradients === 'hand') {
        // Each mini-batch packed once into typed arrays, reused by every epoch and by the reference pass.
        const d = agent.config.dim;
        const packs: DecisionBatch[] = dealt.map((_, m) =>
          packDecisionBatch(
            rows.slice(bounds[m], bounds[m + 1]).map((r) => r.records),
            { vocabularySize: agent.vocabulary.size, T, memories: memories.slice(bounds[m], bounds[m + 1]) },
          ),
        );
        const w = trainedWeights();
        let params = agent.parameters;
        // The same multipliers for every mini-batch step of this update (its rate).
        const decay = decays ? tf.tensor1d(w.multipliers((name) => 1 - rate * decayOf(name))) : undefined;
        packMs = performance.now() - packStarted;
        const refStarted = performance.now();
        // The skill reader is frozen: its term is a constant per candidate, for this update.
        const reads = packs.map((pack) => skillReads(params.prior, pack));
        const samePrior = reference.prior.every((v, i) => v === params.prior[i]);
        const refs = options.kl
          ? packs.map(
              (pack, m) =>
                forwardDecisions(
                  reference,
                  pack,
                  d,
                  samePrior ? (reads[m] as Float64Array) : skillReads(reference.prior, pack),
                ).logProbs,
            )
          : undefined;
        refMs = performance.now() - refStarted;
        const gradStarted = performance.now();
        for (let epoch = 0; epoch < epochs; epoch++) {
          for (let m = 0; m < parts; m++) {
            const [lo, hi] = [bounds[m] as number, bounds[m + 1] as number];
            const step = await handGradientStep(
              w,
              params,
              d,
              {
                decisions: packs[m] as DecisionBatch,
                reads: reads[m] as Float64Array,
                mask: mask.slice(lo, hi),
                advantages: adv.slice(lo, hi),
                ...(old && { oldLogProbs: old.slice(lo, hi) }),
                ...(refs && { refLogProbs: refs[m] as Float64Array }),
              },
              { optimizer: opt, ...lossOptions, ...(decay && { decay }) },
            );
            metrics = step.metrics;
            params = step.parameters;
          }
        }
        decay?.dispose();
        gradMs = performance.now() - gradStarted;
        agent.setParameters(params);
        trainedSynced = agent.parameters;
      } else {
        const p = tfPolicy();
        const packed = packBatch(
          rows.map((r) => r.records),
          { vocabularySize: agent.vocabulary.size, T, memories },
        );
        packMs = performance.now() - packStarted;
        const refStarted = performance.now();
        let ref: number[][] | undefined;
        if (options.kl) {
          refPolicy ??= createTfPolicy(reference, agent.config, agent.vocabulary.size, {
            trainable: false,
            name: 'reference',
          });
          const values = await run(refPolicy, packed);
          ref = rows.map((_, b) => Array.from({ length: T }, (_, t) => values[b * T + t] as number));
        }
        const model = {
          trainableVariables: options.trainPrior
            ? p.trainableVariables
            : p.trainableVariables.filter((v) => v !== p.variables.prior),
          logProbs: (inputs: PackedBatch) => p.logProbs(inputs),
        };
        refMs = performance.now() - refStarted;
        const gradStarted = performance.now();
        for (let epoch = 0; epoch < epochs; epoch++) {
          for (let m = 0; m < parts; m++) {
            const [lo, hi] = [bounds[m] as number, bounds[m + 1] as number];
            const whole = lo === 0 && hi === rows.length;
            metrics = await policyGradientStep(
              model,
              {
                inputs: whole ? packed : slicePackedBatch(packed, lo, hi),
                mask: mask.slice(lo, hi),
                advantages: adv.slice(lo, hi),
                ...(old && { oldLogProbs: old.slice(lo, hi) }),
                ...(ref && { refLogProbs: ref.slice(lo, hi) }),
              },
              { optimizer: opt, sliceInputs: slicePackedBatch, ...lossOptions },
            );
            if (decays) {
              for (const name of Object.keys(p.variables) as (keyof typeof p.variables)[]) {
                if (name === 'prior') continue;
                const factor = 1 - rate * decayOf(name);
                const v = p.variables[name];
                if (factor !== 1) tf.tidy(() => v.assign(tf.mul(v, factor)));
              }
            }
          }
        }
        gradMs = performance.now() - gradStarted;
        agent.setParameters(p.read());
        policySynced = agent.parameters;
      }
      // Where the time went: packing the records, the reference forward pass, the optimiser step(s).
      return {
        ...metrics,
        ...base,
        pack_ms: packMs,
        ref_ms: refMs,
        grad_ms: gradMs,
        step_ms: performance.now() - started,
      };
    },
    dispose() {
      policy?.dispose();
      refPolicy?.dispose();
      trained?.dispose();
      optimizer?.dispose();
      policy = undefined;
      refPolicy = undefined;
      trained = undefined;
      optimizer = undefined;
    },
  };
}
