import type { CurriculumState, ValidationResult } from './curriculum.js';
import type { JsonObject } from './json.js';

interface EventBase {
  runId: string;
  /** ISO-8601 time the event was emitted. */
  time: string;
}

export interface RunStartEvent extends EventBase {
  type: 'run:start';
  method: string;
  seed: number;
  config?: JsonObject;
}

export interface RolloutEvent extends EventBase {
  type: 'rollout';
  trajectoryId: string;
  taskId: string;
  family: string;
  condition: 0 | 1;
  reward: number;
  passed: boolean;
  generation?: number;
  candidate?: number;
  error?: string;
}

export interface GenerationEvent extends EventBase {
  type: 'generation';
  taskId: string;
  generation: number;
  meanReward: number;
  bestReward: number;
  bestSkill: string;
  metrics?: Record<string, number>;
  /** Why the generation's update carried no learning signal, in words; absent when it carried any. */
  void?: string;
}

export interface StepEvent extends EventBase {
  type: 'step';
  step: number;
  metrics: Record<string, number>;
  /** Why the step's update carried no learning signal, in words; absent when it carried any. */
  void?: string;
}

export interface ValidationEvent extends EventBase {
  type: 'validation';
  step: number;
  validation: ValidationResult;
  curriculum?: CurriculumState;
  /**
   * True when no update of the policy happened in this run (its trainer reports `updatesPolicy: false`): the
   * validation measured the starting policy, and the curriculum decisions it fed (λ, ρ, retirements) were
   * made against a frozen policy.
   */
  frozenPolicy?: boolean;
}

export interface CheckpointEvent extends EventBase {
  type: 'checkpoint';
  step: number;
  path: string;
}

export interface RunEndEvent extends EventBase {
  type: 'run:end';
  status: 'completed' | 'failed' | 'cancelled';
  metrics?: Record<string, number>;
  error?: string;
}

/**
 * Rollout workers on a queue (a config's `workers`): none listening for a while (`no-worker`), listening again
 * (`workers-back`), or jobs Redis lost (restarted without persistence) enqueued again (`re-enqueued`).
 */
export interface WorkersEvent extends EventBase {
  type: 'workers';
  status: 'no-worker' | 'workers-back' | 're-enqueued';
  /** Workers listening when it was written. */
  workers: number;
  /** For `re-enqueued`: how many jobs were added again. */
  jobs?: number;
  message: string;
}

/** The typed events both loops emit; the CLI, the run store and the report consume them. */
export type RunEvent =
  | RunStartEvent
  | RolloutEvent
  | GenerationEvent
  | StepEvent
  | ValidationEvent
  | CheckpointEvent
  | WorkersEvent
  | RunEndEvent;

export type RunEventType = RunEvent['type'];
