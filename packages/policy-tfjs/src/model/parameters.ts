import { createRng, InvalidArgumentError, type Seed } from '@skillrl/core';
import { type AgentConfig, FEATURE_COUNT, REPEAT_FEATURE } from './agent-config.js';
import { FEATURE_SCALE } from './encode-decision.js';

/**
 * The agent's weights as flat float32 arrays (row-major), the one source of truth: acting reads them
 * directly, the trainer copies them into tfjs variables and writes them back after each step.
 */
export interface AgentParameters {
  /** [V, d] word embeddings. */
  embedding: Float32Array;
  /** [3d, d]: maps the context (goal, observation, recent actions) to a query for candidate embeddings. */
  query: Float32Array;
  /** [d]: a context-free preference per action embedding. */
  actionBias: Float32Array;
  /** [F]: weights of the hand-made candidate features. */
  featureWeights: Float32Array;
  /** [4]: the skill-reading prior's β, τ, κ, μ. */
  prior: Float32Array;
}

export const PARAMETER_NAMES = ['embedding', 'query', 'actionBias', 'featureWeights', 'prior'] as const;
export type ParameterName = (typeof PARAMETER_NAMES)[number];

export function parameterShapes(
  config: AgentConfig,
  vocabularySize: number,
): Record<ParameterName, number[]> {
  const d = config.dim;
  return {
    embedding: [vocabularySize, d],
    query: [3 * d, d],
    actionBias: [d],
    featureWeights: [FEATURE_COUNT],
    prior: [4],
  };
}

/**
 * Starting weights. The learned scorer starts at exactly zero output (zero query, bias and feature weights;
 * only the embeddings are random, so gradients flow from the first step): without a skill the untrained
 * agent is the uniform random policy, and everything it does better with a skill comes from reading it.
 */
export function initParameters(config: AgentConfig, vocabularySize: number, seed: Seed): AgentParameters {
  const rng = createRng(seed).fork('init');
  const shapes = parameterShapes(config, vocabularySize);
  const embedding = new Float32Array(vocabularySize * config.dim);
  const scale = 1 / Math.sqrt(config.dim);
  for (let i = 0; i < embedding.length; i++) embedding[i] = rng.normal(0, scale);
  return {
    embedding,
    query: new Float32Array(size(shapes.query)),
    actionBias: new Float32Array(size(shapes.actionBias)),
    featureWeights: Float32Array.from({ length: size(shapes.featureWeights) }, (_, i) =>
      i === REPEAT_FEATURE ? config.repeatBias / FEATURE_SCALE : 0,
    ),
    prior: Float32Array.from([config.priorScale, config.priorSharpness, config.priorDone, config.priorRank]),
  };
}

export function size(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function copyParameters(p: AgentParameters): AgentParameters {
  return {
    embedding: p.embedding.slice(),
    query: p.query.slice(),
    actionBias: p.actionBias.slice(),
    featureWeights: p.featureWeights.slice(),
    prior: p.prior.slice(),
  };
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
