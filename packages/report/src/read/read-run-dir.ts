import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type RunEvent, type Trajectory } from '@skillrl/core';
import { checkEvent, isObj } from './check-event.js';
import { readJsonl, streamRecords } from './read-jsonl.js';
import { readSkillFiles, type SkillFile } from './read-skill-files.js';

/** Everything the report reads from a run directory, with notes on what was missing or damaged. */
export interface RunData {
  dir: string;
  config?: Record<string, unknown>;
  /** `run.json`, written by the orchestrator next to config.json. */
  manifest?: Record<string, unknown>;
  events: RunEvent[];
  /**
   * Present only when the events carry no rollout records (then the report counts from these); without
   * their steps, which the report does not read.
   */
  rollouts: Trajectory[];
  hasEventsFile: boolean;
  hasRolloutsFile: boolean;
  skills: SkillFile[];
  /** `bank.jsonl`, written when a run completes: every skill version, its parent, reward and utility. */
  bank?: BankRow[];
  notes: string[];
}

/** One skill version of the run's bank (`bank.jsonl`, as the orchestrator writes it). */
export interface BankRow {
  name: string;
  hash: string;
  parent?: string;
  generation?: number | 'final';
  task?: string;
  families?: string[];
  final?: boolean;
  /** Evolve: the editor's candidate index; `carried: false` for a candidate that was not carried. */
  candidate?: number;
  carried?: boolean;
  retiredAt?: Record<string, number>;
  reward?: { mean: number; lo: number; hi: number; episodes: number };
  utility?: {
    split: string;
    withSkill: number;
    withoutSkill: number;
    gap: number;
    lo: number;
    hi: number;
    /** `task`: pairs are tasks; `episode`: one task's episodes with against without. */
    pairedBy?: 'task' | 'episode';
    pairs: number;
    episodes: number;
  };
}

function readJsonFile(path: string, label: string, notes: string[]): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (isObj(value)) return value;
    notes.push(`${label}: not a JSON object; ignored.`);
  } catch (error) {
    notes.push(`${label}: could not be parsed (${(error as Error).message}); ignored.`);
  }
  return undefined;
}

/** A rollout event's key for "the latest record per rollout": its trajectory id (other events have none). */
function rolloutKey(record: unknown): string | undefined {
  if (!isObj(record) || record.type !== 'rollout') return undefined;
  return typeof record.trajectoryId === 'string' ? record.trajectoryId : undefined;
}

/** Reads a run directory without writing to it: a run that is still going keeps its files as they are. */
export function readRunDir(runDir: string): RunData {
  if (typeof runDir !== 'string' || runDir.length === 0) {
    throw new InvalidArgumentError('runDir', 'expected the path of a run directory (runs/<run-id>)');
  }
  const dir = resolve(runDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InvalidArgumentError(
      'runDir',
      `${dir} is not a directory; pass the folder a run wrote (runs/<run-id>)`,
    );
  }
  const notes: string[] = [];
  const config = readJsonFile(join(dir, 'config.json'), 'config.json', notes);
  const manifest = readJsonFile(join(dir, 'run.json'), 'run.json', notes);

  // Streamed: only the events that pass the check are kept. A rollout run again on resume (its model call
  // had failed) has a later event under the same trajectory id; only the latest is read (core's
  // readLatestRecords, keyed by trajectoryId), so each trajectory counts once, as it finally ended.
  const eventsRead = streamRecords<unknown>(dir, 'events', { keyOf: rolloutKey });
  const events: RunEvent[] = [];
  let rolloutEvents = 0;
  let rejected = 0;
  for (const record of eventsRead.records) {
    const event = checkEvent(record);
    if (!event) {
      rejected++;
      continue;
    }
    if (event.type === 'rollout') rolloutEvents++;
    events.push(event);
  }
  notes.push(...eventsRead.notes());
  if (rejected > 0) {
    notes.push(`events.jsonl: ignored ${rejected} record(s) of an unknown type or with missing fields.`);
  }
  if (!eventsRead.exists)
    notes.push('events.jsonl is missing: nothing has been recorded yet, or the run was moved.');

  // The same for the trajectories: each rollout id's latest record.
  const rolloutsRead = streamRecords<Trajectory>(dir, 'rollouts', {});
  const hasRolloutsFile = rolloutsRead.exists;
  const rollouts: Trajectory[] = [];
  // Rollout events carry all the report needs; the trajectories (much larger) are read only without them,
  // one at a time, keeping the fields the report counts.
  if (rolloutEvents === 0 && hasRolloutsFile) {
    for (const t of rolloutsRead.records) {
      if (
        isObj(t) &&
        typeof t.family === 'string' &&
        (t.condition === 0 || t.condition === 1) &&
        isObj(t.verdict)
      ) {
        rollouts.push({
          id: t.id,
          taskId: t.taskId,
          family: t.family,
          condition: t.condition,
          steps: [],
          reward: t.reward,
          verdict: { score: t.verdict.score, passed: t.verdict.passed },
          ...(t.error ? { error: t.error } : {}),
        });
      }
    }
    notes.push(...rolloutsRead.notes());
  }
  const skills = readSkillFiles(dir, notes);
  const bankRead = readJsonl<BankRow>(join(dir, 'bank.jsonl'), 'bank.jsonl');
  notes.push(...bankRead.notes);
  const bank = bankRead.records.filter((r) => typeof r?.name === 'string' && typeof r?.hash === 'string');
  return {
    dir,
    ...(config ? { config } : {}),
    ...(manifest ? { manifest } : {}),
    events,
    rollouts,
    hasEventsFile: eventsRead.exists,
    hasRolloutsFile,
    skills,
    bank,
    notes,
  };
}
