import * as tf from '@tensorflow/tfjs';
import { type AgentConfig, FEATURE_COUNT, hiddenScales } from './agent-config.js';
import type { PackedBatch } from './pack-batch.js';
import { type AgentParameters, PARAMETER_NAMES, type ParameterName, parameterShapes } from './parameters.js';

/** The agent's network as tfjs variables: the differentiable twin of `scoreDecision`. */
export interface TfPolicy {
  readonly variables: Record<ParameterName, tf.Variable>;
  readonly trainableVariables: tf.Variable[];
  /** Log-prob of each chosen candidate `[B, T]` and the policy's entropy per decision `[B, T]`. */
  logProbs(batch: PackedBatch): { logProbs: tf.Tensor2D; entropy: tf.Tensor2D };
  /** Copies the given weights into the variables. */
  assign(parameters: AgentParameters): void;
  /** The variables' current values as typed arrays. */
  read(): AgentParameters;
  dispose(): void;
}

const NEG = -1e9;

export function createTfPolicy(
  parameters: AgentParameters,
  config: AgentConfig,
  vocabularySize: number,
  options: { trainable?: boolean; name?: string } = {},
): TfPolicy {
  const shapes = parameterShapes(config, vocabularySize);
  const trainable = options.trainable ?? true;
  // Variable names are global in tfjs: a counter keeps two policies (trainee and reference) apart.
  const prefix = `${options.name ?? 'policy'}_${nextId++}`;
  const variables = {} as Record<ParameterName, tf.Variable>;
  for (const name of PARAMETER_NAMES) {
    variables[name] = tf.variable(tf.tensor(parameters[name], shapes[name]), trainable, `${prefix}_${name}`);
  }
  const d = config.dim;
  const scales = hiddenScales(config.hidden);

  const logProbs = (p: PackedBatch) =>
    tf.tidy(() => {
      const R = p.B * p.T;
      const { C, S } = p;
      // Every distinct word list embedded once ([U, V] × [V, d]), then picked per candidate and decision.
      const vecs = tf.matMul(tf.tensor2d(p.bags, [p.U, p.V]), variables.embedding as tf.Tensor2D);
      const pick = (idx: Int32Array) => tf.gather(vecs, tf.tensor1d(idx, 'int32'));
      const a = tf.reshape(pick(p.candIdx), [R, C, d]);
      const ctx = tf.concat([pick(p.goalIdx), pick(p.obsIdx), pick(p.histIdx), pick(p.memIdx)], 1);
      const h = tf.tanh(
        tf.add(tf.matMul(ctx, variables.hiddenWeights as tf.Tensor2D), variables.hiddenBias),
      ) as tf.Tensor2D;
      const q = tf.add(
        tf.mul(tf.matMul(h, variables.query as tf.Tensor2D), scales.query),
        variables.actionBias,
      );
      let score: tf.Tensor = tf.sum(tf.mul(a, tf.expandDims(q, 1)), -1);
      // Feature weights per decision: θ + h·G, then one weighted sum per candidate.
      const theta = tf.add(
        tf.mul(tf.matMul(h, variables.featureGate as tf.Tensor2D), scales.gate),
        variables.featureWeights,
      );
      const feats = tf.tensor3d(p.feats, [R, C, FEATURE_COUNT]);
      const featTerm = tf.sum(tf.mul(feats, tf.expandDims(theta, 1)), -1);
      score = tf.add(score, featTerm);
      if (S > 0 && p.P > 0) {
        const P = p.P;
        const prior = variables.prior;
        const [beta, tau, kappa, mu] = [0, 1, 2, 3].map((i) => tf.reshape(tf.slice(prior, i, 1), [])) as [
          tf.Scalar,
          tf.Scalar,
          tf.Scalar,
          tf.Scalar,
        ];
        const sims = tf.tensor2d(p.sims, [P, S]);
        const perDecision = (values: Float32Array) =>
          tf.gather(tf.tensor2d(values, [R, S]), tf.tensor1d(p.pairDecision, 'int32'));
        const base = tf.add(
          tf.neg(tf.add(tf.mul(kappa, perDecision(p.done)), tf.mul(mu, perDecision(p.rank)))),
          tf.mul(tf.sub(perDecision(p.clauseMask), 1), -NEG),
        );
        const att = tf.add(tf.mul(tau, sims), base);
        // The null clause: logit 0, value 0.
        const withNull = tf.concat([att, tf.zeros([P, 1])], 1);
        const alpha = tf.slice(tf.softmax(withNull, -1), [0, 0], [P, S]);
        const read = tf.mul(tf.sum(tf.mul(alpha, tf.mul(sims, perDecision(p.sign))), -1), beta);
        // Scatter the P reads back to [R, C] by a gather from [0, read…] (pairIdx 0 means "no read").
        const full = tf.gather(tf.concat([tf.zeros([1]), read], 0), tf.tensor1d(p.pairIdx, 'int32'));
        score = tf.add(score, tf.reshape(full, [R, C]));
      }
      const candMask = tf.tensor2d(p.candMask, [R, C]);
      const logits = tf.add(
        tf.mul(score, tf.expandDims(tf.tensor1d(p.invTemp), 1)),
        tf.mul(tf.sub(candMask, 1), -NEG),
      );
      const lp = tf.logSoftmax(logits, -1);
      const chosen = tf.sum(tf.mul(lp, tf.tensor2d(p.chosen, [R, C])), -1);
      const entropy = tf.neg(tf.sum(tf.mul(tf.mul(tf.exp(lp), lp), candMask), -1));
      return {
        logProbs: tf.reshape(chosen, [p.B, p.T]) as tf.Tensor2D,
        entropy: tf.reshape(entropy, [p.B, p.T]) as tf.Tensor2D,
      };
    });

  return {
    variables,
    trainableVariables: PARAMETER_NAMES.map((n) => variables[n]),
    logProbs,
    assign(next) {
      for (const name of PARAMETER_NAMES) {
        tf.tidy(() => variables[name].assign(tf.tensor(next[name], shapes[name])));
      }
    },
    read() {
      const out = {} as AgentParameters;
      for (const name of PARAMETER_NAMES) out[name] = Float32Array.from(variables[name].dataSync());
      return out;
    },
    dispose() {
      for (const name of PARAMETER_NAMES) variables[name].dispose();
    },
  };
}

let nextId = 0;
