import type { JsonObject, JsonValue, Rng, Skill, Verifier } from '@skillrl/core';

/**
 * Which parameter range an instance is drawn from. `seen` feeds `train` and `valid_seen` (one distribution,
 * split by a hash of the instance so the two never share one); `unseen` feeds `valid_unseen` from a range no
 * `seen` instance can fall in (more steps, more people, larger numbers — each family documents its ranges).
 */
export type Profile = 'seen' | 'unseen';

export interface GeneratedInstance {
  /** Canonical text of the instance's parameters: equal keys mean the same puzzle. */
  key: string;
  prompt: string;
  answer: JsonValue;
  metadata: JsonObject;
}

/** One offline task family: a seeded generator, its exact verifier, a starting skill and step phrases. */
export interface GeneratedFamily {
  name: string;
  generate(rng: Rng, profile: Profile): GeneratedInstance;
  verifier: Verifier;
  skill: Skill;
  steps: string[];
}
