import type { TrainMetrics } from './skill-generator.js';
import type { Trajectory } from './trajectory.js';

export interface TrainBatch {
  trajectories: readonly Trajectory[];
  /** One advantage per trajectory, broadcast over its actions. */
  advantages: ArrayLike<number>;
}

/** In-process tfjs training, or an exporter that writes the batch for an external trainer. */
export interface PolicyTrainer {
  update(batch: TrainBatch): Promise<TrainMetrics>;
}
