import {
  applyClippedGradients,
  type FlatMatrixLike,
  type LossGradientBatch,
  type PolicyStepMetrics,
  policyLossGradients,
  type StepLossOptions,
} from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import type { DecisionBatch } from '../model/decision-batch.js';
import { type AgentParameters, PARAMETER_NAMES, type ParameterName } from '../model/parameters.js';
import { backwardDecisions, forwardDecisions, type NetworkGradients } from '../model/typed-network.js';

export type TrainedName = Exclude<ParameterName, 'prior'>;
const TRAINED = PARAMETER_NAMES.filter((n): n is TrainedName => n !== 'prior');

/**
 * The trained weights (all but the frozen prior) end to end in one tfjs variable, for the optimiser. Adam
 * is elementwise, so one update of the concatenation is the same step as one per weight matrix, in a few
 * kernels instead of seven times as many.
 */
export interface TrainedWeights {
  readonly variable: tf.Variable;
  /** Copies the given weights into the variable. */
  assign(parameters: AgentParameters): void;
  /** The variable's values as weights, with `prior` (not trained here) copied in. */
  read(prior: Float32Array): AgentParameters;
  /**
   * One multiplier per element of the variable, `factor(name)` for each weight's elements (a decoupled weight
   * decay's 1 − rate·decay, per weight).
   */
  multipliers(factor: (name: TrainedName) => number): Float32Array;
  dispose(): void;
}

export function createTrainedWeights(parameters: AgentParameters): TrainedWeights {
  const offsets = new Map<TrainedName, number>();
  let size = 0;
  for (const name of TRAINED) {
    offsets.set(name, size);
    size += parameters[name].length;
  }
  const sizes = new Map(TRAINED.map((n) => [n, parameters[n].length]));
  const flatten = (p: AgentParameters) => {
    const out = new Float32Array(size);
    for (const name of TRAINED) out.set(p[name], offsets.get(name));
    return out;
  };
  const variable = tf.variable(tf.tensor1d(flatten(parameters)), true, `trained_weights_${nextId++}`);
  return {
    variable,
    assign(p) {
      tf.tidy(() => variable.assign(tf.tensor1d(flatten(p))));
    },
    multipliers(factor) {
      const out = new Float32Array(size);
      for (const name of TRAINED) {
        const at = offsets.get(name) as number;
        out.fill(factor(name), at, at + (sizes.get(name) as number));
      }
      return out;
    },
    read(prior) {
      const values = variable.dataSync() as Float32Array;
      const out = { prior: prior.slice() } as AgentParameters;
      for (const name of TRAINED) {
        const at = offsets.get(name) as number;
        out[name] = values.slice(at, at + (sizes.get(name) as number));
      }
      return out;
    },
    dispose() {
      variable.dispose();
    },
  };
}

export interface HandGradientBatch {
  decisions: DecisionBatch;
  /** The frozen skill reader's term per candidate (`skillReads`). */
  reads: Float64Array;
  /** `[B, T]` each, as rows or row-major. */
  mask: number[][];
  advantages: LossGradientBatch['advantages'];
  oldLogProbs?: FlatMatrixLike;
  refLogProbs?: FlatMatrixLike;
}

/**
 * One optimiser step with the network's gradient written out by hand: the typed-array forward pass gives
 * per-decision log-probs and entropies, tensor-ops differentiates the loss with respect to them (every loss,
 * KL kind, aggregation and micro-batching it has, on `[B, T]` tensors), `backwardDecisions` chains that into
 * the weights, and tfjs's own optimiser applies it after tensor-ops' global-norm clip. The same step as
 * `policyGradientStep` on `createTfPolicy` with the prior frozen (tested against `tf.variableGrads`).
 * Returns the step's metrics and the weights after it.
 */
export async function handGradientStep(
  weights: TrainedWeights,
  params: AgentParameters,
  d: number,
  batch: HandGradientBatch,
  options: StepLossOptions & {
    optimizer: tf.Optimizer;
    maxGradNorm?: number;
    /** Multiplies the weights elementwise after the optimiser's step (a decoupled weight decay). */
    decay?: tf.Tensor1D;
  },
): Promise<{ metrics: PolicyStepMetrics; parameters: AgentParameters }> {
  const { optimizer, maxGradNorm, decay, ...lossOptions } = options;
  const pass = forwardDecisions(params, batch.decisions, d, batch.reads);
  const loss = await policyLossGradients(
    {
      logProbs: pass.logProbs,
      entropy: pass.entropy,
      mask: batch.mask,
      advantages: batch.advantages,
      ...(batch.oldLogProbs && { oldLogProbs: batch.oldLogProbs }),
      ...(batch.refLogProbs && { refLogProbs: batch.refLogProbs }),
    },
    lossOptions,
  );
  const grads = backwardDecisions(params, batch.decisions, d, pass, loss.dLogProbs, loss.dEntropy);
  const flat = tf.tensor1d(flattenGradients(grads));
  try {
    const applied = await applyClippedGradients(
      optimizer,
      { [weights.variable.name]: flat },
      maxGradNorm !== undefined ? { maxGradNorm } : {},
    );
    if (decay) tf.tidy(() => weights.variable.assign(tf.mul(weights.variable, decay)));
    return { metrics: { ...loss.metrics, ...applied }, parameters: weights.read(params.prior) };
  } finally {
    flat.dispose();
  }
}

function flattenGradients(grads: NetworkGradients): Float32Array {
  let size = 0;
  for (const name of TRAINED) size += grads[name].length;
  const out = new Float32Array(size);
  let at = 0;
  for (const name of TRAINED) {
    out.set(grads[name], at);
    at += grads[name].length;
  }
  return out;
}

let nextId = 0;
