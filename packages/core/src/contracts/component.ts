import type { AdvantageEstimator } from './advantage.js';
import type { Agent } from './agent.js';
import type { JsonObject, JsonValue } from './json.js';
import type { PolicyTrainer } from './policy-trainer.js';
import type { SkillGenerator } from './skill-generator.js';
import type { TaskAdapter } from './task-adapter.js';

// What a component factory (built-in or a third-party package) is given, and how its learner state travels
// through a run's checkpoints: the contract a plugin package implements against core alone.

export type ComponentKind = 'adapter' | 'agent' | 'generator' | 'trainer' | 'estimator';

/** What a factory learns about the run it is created for. */
export interface ComponentContext {
  /** A seed derived from the run seed and the component's role. */
  seed: number;
  /** Absolute path of the config file. */
  configPath: string;
  adapter?: TaskAdapter;
  /** The task model, for trainers that train it. */
  agent?: Agent;
}

/**
 * How a learner's state travels through a checkpoint: as JSON inside the snapshot, or as files in a
 * folder. `load` may return a new instance (tfjs checkpoints) that replaces the old one.
 */
export type Persistence<T> =
  | { kind: 'json'; get(component: T): JsonValue; set(component: T, value: JsonValue): void | Promise<void> }
  | {
      kind: 'dir';
      save(component: T, dir: string): Promise<void>;
      load(dir: string, component: T): Promise<T>;
    };

export interface ResolvedComponent<T> {
  value: T;
  /** `registry:<name>` or `package:<specifier>#<export>`: recorded in the run's config. */
  source: string;
  options: JsonObject;
  persistence?: Persistence<T>;
}

export interface ComponentTypes {
  adapter: TaskAdapter;
  agent: Agent;
  generator: SkillGenerator;
  trainer: PolicyTrainer;
  estimator: (extra?: JsonObject) => AdvantageEstimator;
}
