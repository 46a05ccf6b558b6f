import {
  applyClippedGradients,
  type PolicyStepMetrics,
  policyLossGradients,
  type StepLossOptions,
} from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import type { DecisionBatch } from '../model/decision-batch.js';
import type { AgentParameters } from '../model/parameters.js';
import type { TfPolicy } from '../model/tf-policy.js';
import { backwardDecisions, forwardDecisions, type NetworkGradients } from '../model/typed-network.js';

export interface HandGradientBatch {
  decisions: DecisionBatch;
  /** The frozen skill reader's term per candidate (`skillReads`). */
  reads: Float64Array;
  mask: number[][];
  advantages: number[][];
  oldLogProbs?: number[][];
  /** Reference log-probs, `[B, T]` row-major. */
  refLogProbs?: Float64Array;
}

/**
 * One optimiser step with the network's gradient written out by hand: the typed-array forward pass gives
 * per-decision log-probs and entropies, tensor-ops differentiates the loss with respect to them (every loss,
 * KL kind, aggregation and micro-batching it has, on `[B, T]` tensors), `backwardDecisions` chains that into
 * the weights, and tfjs's own optimiser applies it after tensor-ops' global-norm clip. The same step as
 * `policyGradientStep` on `createTfPolicy` with the prior frozen (tested against `tf.variableGrads`).
 */
export async function handGradientStep(
  policy: TfPolicy,
  params: AgentParameters,
  d: number,
  batch: HandGradientBatch,
  options: StepLossOptions & { optimizer: tf.Optimizer; maxGradNorm?: number },
): Promise<PolicyStepMetrics> {
  const { optimizer, maxGradNorm, ...lossOptions } = options;
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
  const tensors = gradientTensors(policy, grads);
  try {
    const applied = await applyClippedGradients(
      optimizer,
      tensors,
      maxGradNorm !== undefined ? { maxGradNorm } : {},
    );
    return { ...loss.metrics, ...applied };
  } finally {
    tf.dispose(Object.values(tensors));
  }
}

/** The gradients as float32 tensors keyed by the policy's variable names, as `applyGradients` takes them. */
function gradientTensors(policy: TfPolicy, grads: NetworkGradients): Record<string, tf.Tensor> {
  const out: Record<string, tf.Tensor> = {};
  for (const [name, values] of Object.entries(grads) as [keyof NetworkGradients, Float64Array][]) {
    const variable = policy.variables[name];
    out[variable.name] = tf.tensor(Float32Array.from(values), variable.shape);
  }
  return out;
}
