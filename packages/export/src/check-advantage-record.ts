/** One trained trajectory's row of an internalize run's `advantages.jsonl` record. */
export interface TrajectoryAdvantageRow {
  trajectoryId: string;
  /** null: the update gave it none (an estimator left it out, e.g. an errored rollout of an older run). */
  advantage: number | null;
  /** Step-level credit (GiGPO's): one advantage per step of the trajectory. */
  stepAdvantages?: number[];
}

/** One scored candidate's row of an evolve run's `advantages.jsonl` record. */
export interface CandidateAdvantageRow {
  taskId: string;
  candidate: number;
  advantage: number | null;
  reward?: number | null;
  fallback?: true;
}

/** What the rows of a record are: a trained trajectory's (internalize) or a candidate's (evolve). */
export type AdvantageRowKind = 'trajectory' | 'candidate';

/**
 * One record of `advantages.jsonl` as a run writes it after each update (`{ key, unit, rows }`): per unit,
 * what the trained component was given — per trajectory (internalize) or per task and candidate (evolve).
 */
export interface AdvantageRecord<Row = TrajectoryAdvantageRow | CandidateAdvantageRow> {
  key: string;
  unit: string;
  rows: Row[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const shown = (v: unknown): string => {
  const text = v === undefined ? 'undefined' : JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

const finiteOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

function checkTrajectoryRow(row: Record<string, unknown>, at: string): string | undefined {
  if (typeof row.trajectoryId !== 'string' || row.trajectoryId === '') {
    return `${at}.trajectoryId = ${shown(row.trajectoryId)} (expected a rollout id: a string)`;
  }
  if (!finiteOrNull(row.advantage)) {
    return `${at}.advantage = ${shown(row.advantage)} (expected a finite number or null)`;
  }
  if (row.stepAdvantages !== undefined) {
    if (!Array.isArray(row.stepAdvantages)) {
      return `${at}.stepAdvantages = ${shown(row.stepAdvantages)} (expected an array of finite numbers)`;
    }
    const bad = row.stepAdvantages.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
    if (bad !== -1) {
      return `${at}.stepAdvantages[${bad}] = ${shown(row.stepAdvantages[bad])} (expected a finite number)`;
    }
  }
  return undefined;
}

function checkCandidateRow(row: Record<string, unknown>, at: string): string | undefined {
  if (typeof row.taskId !== 'string' || row.taskId === '') {
    return `${at}.taskId = ${shown(row.taskId)} (expected a task id: a string)`;
  }
  if (typeof row.candidate !== 'number' || !Number.isInteger(row.candidate) || row.candidate < 0) {
    return `${at}.candidate = ${shown(row.candidate)} (expected an integer >= 0)`;
  }
  if (!finiteOrNull(row.advantage)) {
    return `${at}.advantage = ${shown(row.advantage)} (expected a finite number or null)`;
  }
  if (row.reward !== undefined && !finiteOrNull(row.reward)) {
    return `${at}.reward = ${shown(row.reward)} (expected a finite number)`;
  }
  return undefined;
}

/**
 * What is wrong with a parsed `advantages.jsonl` record, in words naming the field and what was expected; or
 * undefined when it is a record the export can read. A record is read whole or not at all: a row that is not
 * what the run writes means the line was damaged, and no row of it is trusted.
 */
export function checkAdvantageRecord(value: unknown, kind: AdvantageRowKind): string | undefined {
  if (!isObject(value)) return `is ${shown(value)} (expected an object { key, unit, rows })`;
  if (typeof value.key !== 'string') return `has key = ${shown(value.key)} (expected a string)`;
  if (typeof value.unit !== 'string') return `has unit = ${shown(value.unit)} (expected a string)`;
  if (!Array.isArray(value.rows)) return `has rows = ${shown(value.rows)} (expected an array)`;
  for (let i = 0; i < value.rows.length; i++) {
    const row: unknown = value.rows[i];
    const at = `rows[${i}]`;
    if (!isObject(row)) return `has ${at} = ${shown(row)} (expected an object)`;
    const wrong = kind === 'trajectory' ? checkTrajectoryRow(row, at) : checkCandidateRow(row, at);
    if (wrong) return `has ${wrong}`;
  }
  return undefined;
}
