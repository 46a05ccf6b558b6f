import { InvalidArgumentError } from '@skillrl/core';
import { type CheckedBatch, requireField } from '../batch/read-batch.js';
import type { GroupIndex } from '../group/group-index.js';

/**
 * The batch's steps laid out as rows, one per step of each sample with a finite score, as verl-agent's batch
 * has one row per step: sample i's steps are rows `rowStart[i] .. rowStart[i + 1] − 1`. A skipped sample
 * (non-finite score) has no rows, so it moves no mean or std at either level.
 */
export interface StepRows {
  /** n + 1 offsets into the rows. */
  readonly rowStart: Int32Array;
  /** Steps of each sample; 0 for a skipped one. */
  readonly stepCount: Int32Array;
  /** Discounted return G_t of each row (GiGPO Eq. 5). */
  readonly returns: Float64Array;
  /** Anchor-state key of each row. */
  readonly keys: string[];
  /** Dense task group of each row. */
  readonly taskOf: Int32Array;
}

const STEP_KEYS_HINT =
  "give each sample the anchor-state key of each of its steps; the method steps fill it with core's stateKeyOf(step)";
const STEP_REWARDS_HINT =
  "give each sample the reward of each of its steps; the method steps fill it with core's stepRewardsOf(trajectory)";

function rowOf(value: unknown): ArrayLike<unknown> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const length = (value as { length?: unknown }).length;
  return typeof length === 'number' && Number.isInteger(length) && length >= 0
    ? (value as ArrayLike<unknown>)
    : undefined;
}

/**
 * Reads `stepKeys` and `stepRewards` (both required) for the samples with a finite score and computes each
 * step's discounted return G_t = r_t + γ·G_{t+1}, backwards within the trajectory, as verl-agent's
 * `compute_step_discounted_returns`. The rows of a skipped sample are not read at all: an errored rollout may
 * carry any placeholder there.
 */
export function readStepRows(
  checked: CheckedBatch,
  tasks: GroupIndex,
  gamma: number,
  component: string,
): StepRows {
  const stepKeys = requireField(checked, 'stepKeys', component, STEP_KEYS_HINT);
  const stepRewards = requireField(checked, 'stepRewards', component, STEP_REWARDS_HINT);
  const { scores, size } = checked;
  const keyRows: Array<ArrayLike<unknown> | undefined> = new Array(size);
  const rewardRows: Array<ArrayLike<unknown> | undefined> = new Array(size);
  const rowStart = new Int32Array(size + 1);
  const stepCount = new Int32Array(size);
  let rows = 0;
  for (let i = 0; i < size; i++) {
    rowStart[i] = rows;
    const x = scores[i] as number;
    if (x - x !== 0) continue;
    const keys = rowOf(stepKeys[i]);
    if (!keys) {
      throw new InvalidArgumentError(
        `batch.stepKeys[${i}]`,
        `${component}: expected an array with the anchor-state key of each step, got ${describe(stepKeys[i])}`,
      );
    }
    const rewards = rowOf(stepRewards[i]);
    if (!rewards) {
      throw new InvalidArgumentError(
        `batch.stepRewards[${i}]`,
        `${component}: expected an array with the reward of each step, got ${describe(stepRewards[i])}`,
      );
    }
    if (keys.length !== rewards.length) {
      throw new InvalidArgumentError(
        `batch.stepKeys[${i}]`,
        `${component}: expected one key per step reward (batch.stepRewards[${i}] has ${rewards.length}), got ${keys.length}; fill both from the same trajectory's steps`,
      );
    }
    keyRows[i] = keys;
    rewardRows[i] = rewards;
    stepCount[i] = keys.length;
    rows += keys.length;
  }
  rowStart[size] = rows;

  const returns = new Float64Array(rows);
  const keys: string[] = new Array(rows);
  const taskOf = new Int32Array(rows);
  const groupOf = tasks.groupOf;
  for (let i = 0; i < size; i++) {
    const steps = stepCount[i] as number;
    if (steps === 0) continue;
    const start = rowStart[i] as number;
    const keyRow = keyRows[i] as ArrayLike<unknown>;
    const rewardRow = rewardRows[i] as ArrayLike<unknown>;
    const task = groupOf[i] as number;
    let g = 0;
    for (let t = steps - 1; t >= 0; t--) {
      const r = rewardRow[t];
      if (typeof r !== 'number' || !Number.isFinite(r)) {
        // core's stepRewardsOf turns a missing environment reward into 0, so a non-finite one is a bug
        // upstream; taking it would poison the mean of every step group it joins.
        throw new InvalidArgumentError(
          `batch.stepRewards[${i}][${t}]`,
          `${component}: expected a finite number, got ${describe(r)}`,
        );
      }
      const key = keyRow[t];
      if (typeof key !== 'string') {
        throw new InvalidArgumentError(
          `batch.stepKeys[${i}][${t}]`,
          `${component}: expected a string (core's stateKeyOf(step)), got ${describe(key)}`,
        );
      }
      g = r + gamma * g;
      returns[start + t] = g;
      keys[start + t] = key;
      taskOf[start + t] = task;
    }
  }
  return { rowStart, stepCount, returns, keys, taskOf };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
