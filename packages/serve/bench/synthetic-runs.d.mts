import type { RunStore, Trajectory } from '@skillrl/core';

export interface InternalizeRunOptions {
  runId?: string;
  variant?: string;
  seed?: number;
  steps?: number;
  tasksPerStep?: number;
  groupSize?: number;
  validateEvery?: number;
  families?: string[];
  validationTasks?: number;
  testTasks?: number;
  trajectorySteps?: number;
  observationBytes?: number;
  learn?: number;
  complete?: boolean;
  keepOpen?: boolean;
  segmentBytes?: number;
  startMs?: number;
  errorEvery?: number;
}

export function writeInternalizeRun(
  dir: string,
  options?: InternalizeRunOptions,
): { store: RunStore; step(t: number): void; finish(): void; close(): void };

export function writeEvolveRun(
  dir: string,
  options?: {
    runId?: string;
    seed?: number;
    tasks?: number;
    generations?: number;
    candidates?: number;
    episodes?: number;
    markup?: boolean;
  },
): void;

export function writeLongTrajectoryRun(dir: string, options?: { steps?: number; runId?: string }): string;

export function makeTrajectory(rng: unknown, options: Record<string, unknown>): Trajectory;
