import { createRng } from '@skillrl/core';
import type { AgentParameters } from '../model/parameters.js';

/** Weights with every read-out non-zero (the fresh scorer outputs exactly zero, which would hide errors). */
export function busyParameters(p: AgentParameters, seed: string): AgentParameters {
  const rng = createRng(seed);
  const noise = (a: Float32Array, s: number) => a.map((x) => x + rng.normal(0, s));
  return {
    ...p,
    embedding: noise(p.embedding, 0.1),
    query: noise(p.query, 0.5),
    featureGate: noise(p.featureGate, 0.5),
    featureWeights: noise(p.featureWeights, 0.3),
    actionBias: noise(p.actionBias, 0.2),
    hiddenBias: noise(p.hiddenBias, 0.3),
  };
}
