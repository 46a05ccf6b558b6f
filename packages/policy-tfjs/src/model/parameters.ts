import { createRng, InvalidArgumentError, type Seed } from '@skillrl/core';
import { type AgentConfig, CONTEXT_BLOCKS, FEATURE_COUNT, REPEAT_FEATURE } from './agent-config.js';
import { FEATURE_SCALE } from './encode-decision.js';

/**
 * The agent's weights as flat float32 arrays (row-major), the one source of truth: acting reads them
 * directly, the trainer copies them into tfjs variables and writes them back after each step.
 */
export interface AgentParameters {
  /** [V, d] word embeddings. */
  embedding: Float32Array;
  /** [4d, H]: the context (goal, observation, recent actions, memory) into the hidden layer. */
  hiddenWeights: Float32Array;
  /** [H]: the hidden layer's bias. */
  hiddenBias: Float32Array;
  /** [H, d]: maps the hidden state to a query for candidate embeddings. */
  query: Float32Array;
  /** [d]: a context-free preference per action embedding. */
  actionBias: Float32Array;
  /** [F]: context-free weights of the hand-made candidate features. */
  featureWeights: Float32Array;
  /** [H, F]: how the hidden state changes those weights (match the goal's words now, the memory's later). */
  featureGate: Float32Array;
  /** [4]: the skill-reading prior's β, τ, κ, μ. */
  prior: Float32Array;
}

export const PARAMETER_NAMES = [
  'embedding',
  'hiddenWeights',
  'hiddenBias',
  'query',
  'actionBias',
  'featureWeights',
  'featureGate',
  'prior',
] as const;
export type ParameterName = (typeof PARAMETER_NAMES)[number];

export function parameterShapes(
  config: AgentConfig,
  vocabularySize: number,
): Record<ParameterName, number[]> {
  const d = config.dim;
  const h = config.hidden;
  return {
    embedding: [vocabularySize, d],
    hiddenWeights: [CONTEXT_BLOCKS * d, h],
    hiddenBias: [h],
    query: [h, d],
    actionBias: [d],
    featureWeights: [FEATURE_COUNT],
    featureGate: [h, FEATURE_COUNT],
    prior: [4],
  };
}

/**
 * Starting weights. The learned scorer starts at exactly zero output (zero query, bias, feature weights and
 * gate; the embeddings and the hidden layer are random, so gradients flow from the first step): without a
 * skill the untrained agent is the uniform random policy, and everything it does better with a skill comes
 * from reading it.
 */
export function initParameters(config: AgentConfig, vocabularySize: number, seed: Seed): AgentParameters {
  const rng = createRng(seed).fork('init');
  const shapes = parameterShapes(config, vocabularySize);
  const embedding = new Float32Array(vocabularySize * config.dim);
  const scale = 1 / Math.sqrt(config.dim);
  for (let i = 0; i < embedding.length; i++) embedding[i] = rng.normal(0, scale);
  // Context entries are means of several embeddings (about 0.1 each), so unit-variance weights keep the
  // hidden pre-activations near 1: tanh neither saturated nor flat.
  const hiddenWeights = new Float32Array(size(shapes.hiddenWeights));
  const hiddenRng = rng.fork('hidden');
  for (let i = 0; i < hiddenWeights.length; i++) hiddenWeights[i] = hiddenRng.normal(0, 1);
  return {
    embedding,
    hiddenWeights,
    hiddenBias: new Float32Array(size(shapes.hiddenBias)),
    query: new Float32Array(size(shapes.query)),
    actionBias: new Float32Array(size(shapes.actionBias)),
    featureWeights: Float32Array.from({ length: size(shapes.featureWeights) }, (_, i) =>
      i === REPEAT_FEATURE ? config.repeatBias / FEATURE_SCALE : 0,
    ),
    featureGate: new Float32Array(size(shapes.featureGate)),
    prior: Float32Array.from([config.priorScale, config.priorSharpness, config.priorDone, config.priorRank]),
  };
}

export function size(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function copyParameters(p: AgentParameters): AgentParameters {
  const out = {} as AgentParameters;
  for (const name of PARAMETER_NAMES) out[name] = p[name].slice();
  return out;
}

export function checkParameters(p: AgentParameters, config: AgentConfig, vocabularySize: number): void {
  const shapes = parameterShapes(config, vocabularySize);
  for (const name of PARAMETER_NAMES) {
    const expected = size(shapes[name]);
    if (p[name]?.length !== expected) {
      throw new InvalidArgumentError(
        `parameters.${name}`,
        `expected ${expected} floats for shape [${shapes[name]}], got ${p[name]?.length ?? 'none'}`,
      );
    }
  }
}
