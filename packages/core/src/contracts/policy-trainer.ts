import type { TrainMetrics } from './skill-generator.js';
import type { Trajectory } from './trajectory.js';

export interface TrainBatch {
  trajectories: readonly Trajectory[];
  /** One advantage per trajectory, broadcast over its actions. */
  advantages: ArrayLike<number>;
  /**
   * Step-level advantages (an estimator's `stepAdvantages`, GiGPO's): one per step of each trajectory. A
   * trainer that trains per step uses them instead of broadcasting `advantages`; an entry may be absent.
   */
  stepAdvantages?: readonly (ArrayLike<number> | undefined)[];
}

/** In-process tfjs training, or an exporter that writes the batch for an external trainer. */
export interface PolicyTrainer {
  /**
   * One update. Of the metrics it returns, the run's no-signal guard reads three, when present: `grad_norm`
   * (the gradient's norm before clipping), `episodes` (trajectories trained) and `datums` (datums sent to a
   * remote trainer); any of them 0 marks an update that moved nothing.
   */
  update(batch: TrainBatch): Promise<TrainMetrics>;
  /**
   * Whether `update` changes the policy the agent acts with. `false` for a trainer that only hands batches
   * on (the built-in `external`: train elsewhere from `skillrl export`): the loop then says that no policy
   * update happened, and marks every validation, and the curriculum's λ/ρ and retirements read from it, as
   * decided against a frozen policy. Default true.
   */
  readonly updatesPolicy?: boolean;
}
