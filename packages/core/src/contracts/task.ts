import type { JsonObject, JsonValue } from './json.js';

/** The splits every adapter understands; adapters may add their own (e.g. `test`, `dev`). */
export type StandardSplit = 'train' | 'valid_seen' | 'valid_unseen' | 'test';

/**
 * One task instance `x`. `family` is the skill type the instance belongs to (an ALFWorld task type,
 * WebShop's "shopping", a GAIA level): curricula and estimators key their per-type state on it.
 */
export interface Task {
  id: string;
  family: string;
  split: string;
  /** What the agent is asked to do, in the words it will see. */
  prompt: string;
  /** The reference answer, when the benchmark has one. `undefined` means unlabeled. */
  answer?: JsonValue;
  metadata?: JsonObject;
}
