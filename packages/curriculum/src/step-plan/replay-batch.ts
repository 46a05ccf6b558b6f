import { InvalidArgumentError, rolloutErrored, type TrainBatch, type Trajectory } from '@skillrl/core';

/** One row of a step's record in advantages.jsonl: a trained rollout and its advantages. */
export interface StoredAdvantageRow {
  trajectoryId: string;
  /** `null` in records of older runs for a rollout the update gave no advantage. */
  advantage: number | null;
  /** Step-level advantages, when the estimator gave them (GiGPO). */
  stepAdvantages?: number[];
}

/** One row as read from disk, checked: a damaged one names its step, row and field. */
function checkedRow(value: unknown, step: number, i: number): StoredAdvantageRow {
  const row = value as { trajectoryId?: unknown; advantage?: unknown; stepAdvantages?: unknown } | null;
  const where = `advantages.jsonl, step ${step}, rows[${i}]`;
  if (row === null || typeof row !== 'object' || typeof row.trajectoryId !== 'string') {
    throw new InvalidArgumentError('run directory', `${where}: expected { trajectoryId: string, advantage }`);
  }
  const advantage = row.advantage;
  if (advantage !== null && !(typeof advantage === 'number' && Number.isFinite(advantage))) {
    throw new InvalidArgumentError(
      'run directory',
      `${where}.advantage is ${JSON.stringify(advantage)}, expected a finite number or null`,
    );
  }
  const steps = row.stepAdvantages;
  if (steps === undefined) return { trajectoryId: row.trajectoryId, advantage };
  if (!Array.isArray(steps) || !steps.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new InvalidArgumentError(
      'run directory',
      `${where}.stepAdvantages is not an array of finite numbers; cannot rebuild the policy`,
    );
  }
  return { trajectoryId: row.trajectoryId, advantage, stepAdvantages: steps as number[] };
}

/**
 * The update a stored step made, rebuilt from its advantages.jsonl rows and the stored rollouts (each as its
 * latest record: a re-run, never the errored record before it): what a trainer that cannot save its state
 * replays on resume, and what eval replays to rebuild the trained policy. A row whose rollout errored (rows
 * of older runs list them) or that carries no advantage (`null`) is left out, as core's errored-rollout policy
 * has every consumer do; step-level advantages travel when a row carries them (GiGPO's). `undefined` for a
 * step that trained nothing, which made no update.
 */
export function replayBatch(
  rows: readonly unknown[],
  step: number,
  trajectory: (id: string) => Trajectory,
): TrainBatch | undefined {
  const trajectories: Trajectory[] = [];
  const advantages: number[] = [];
  const stepAdvantages: (number[] | undefined)[] = [];
  rows.forEach((value, i) => {
    const row = checkedRow(value, step, i);
    const found = trajectory(row.trajectoryId);
    if (rolloutErrored(found) || row.advantage === null) return;
    trajectories.push(found);
    advantages.push(row.advantage);
    stepAdvantages.push(row.stepAdvantages);
  });
  if (trajectories.length === 0) return undefined;
  return {
    trajectories,
    advantages,
    ...(stepAdvantages.some((s) => s !== undefined) ? { stepAdvantages } : {}),
  };
}

/** Where `replaySkillcUpdates` reads a run's finished steps from, and the update it replays them into. */
export interface ReplaySkillcUpdatesInput {
  /** Steps 1..completed are replayed in order. */
  completed: number;
  /** Step t's record in advantages.jsonl (key `s<t>`), or undefined when it is missing. */
  stepRecord(step: number): { rows?: unknown } | undefined;
  /** A stored rollout by id, as its latest record. */
  trajectory(id: string): Trajectory;
  /** The trainer's update: called once per step that trained something, in step order. */
  update(batch: TrainBatch): Promise<unknown>;
}

/**
 * Rebuilds a policy whose trainer cannot save its state: a fresh policy from the run's seed, then every finished
 * step's update in order (`replayBatch`), so resume and eval continue from exactly the weights the run had. A
 * missing step record stops it with an error naming the step; a step that trained nothing is skipped, as it
 * made no update. Returns the number of updates replayed.
 */
export async function replaySkillcUpdates(input: ReplaySkillcUpdatesInput): Promise<number> {
  let updates = 0;
  for (let t = 1; t <= input.completed; t++) {
    const record = input.stepRecord(t);
    if (!Array.isArray(record?.rows)) {
      throw new InvalidArgumentError(
        'run directory',
        `advantages of step ${t} are missing; cannot rebuild the policy`,
      );
    }
    const batch = replayBatch(record.rows, t, input.trajectory);
    if (batch) {
      await input.update(batch);
      updates++;
    }
  }
  return updates;
}
