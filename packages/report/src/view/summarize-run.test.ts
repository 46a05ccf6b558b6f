import type { RunEvent } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import type { RunData } from '../read/read-run-dir.js';
import { buildInternalizeView } from './internalize-view.js';
import { summarizeRun } from './summarize-run.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const rollout = (
  id: string,
  family: string,
  condition: 0 | 1,
  passed: boolean,
  s: number,
  error?: string,
): RunEvent => ({
  runId: 'run-7',
  time: at(s),
  type: 'rollout',
  trajectoryId: id,
  taskId: `${family}/1`,
  family,
  condition,
  reward: passed ? 1 : 0,
  passed,
  ...(error ? { error } : {}),
});

const data = (events: RunEvent[]): RunData => ({
  dir: '/runs/run-7',
  events,
  rollouts: [],
  hasEventsFile: true,
  hasRolloutsFile: true,
  skills: [],
  notes: [],
});

describe('summarizeRun', () => {
  it('counts success per family and condition, errors, and the duration of a failed run', () => {
    const events: RunEvent[] = [
      { runId: 'run-7', time: at(0), type: 'run:start', method: 'internalize', seed: 7 },
      rollout('t1', 'clean', 1, true, 10),
      rollout('t2', 'clean', 1, false, 11),
      rollout('t3', 'clean', 1, true, 12),
      rollout('t3', 'clean', 1, true, 12),
      rollout('t4', 'clean', 0, false, 13, 'MODEL_TIMEOUT'),
      rollout('t5', 'heat', 0, true, 14),
      { runId: 'run-7', time: at(90), type: 'run:end', status: 'failed', error: 'verifier crashed' },
    ];
    const s = summarizeRun(data(events), undefined, undefined);
    expect(s).toMatchObject({
      runId: 'run-7',
      method: 'internalize',
      methodLabel: 'internalize',
      seed: 7,
      status: 'failed',
      durationMs: 90_000,
      // t3 appears twice and counts once: 5 rollouts.
      rollouts: 5,
      rolloutErrors: 1,
      errorCodes: { MODEL_TIMEOUT: 1 },
      runError: 'verifier crashed',
    });
    // clean: with skill 2 of 3 passed; without, t4 errored: no episode, no rate, one errored. heat: 1 of 1.
    expect(s.families).toEqual([
      {
        family: 'clean',
        withSkill: { episodes: 3, passed: 2, rate: 2 / 3, errored: 0 },
        withoutSkill: { episodes: 0, passed: 0, rate: null, errored: 1 },
      },
      {
        family: 'heat',
        withSkill: { episodes: 0, passed: 0, rate: null, errored: 0 },
        withoutSkill: { episodes: 1, passed: 1, rate: 1, errored: 0 },
      },
    ]);
  });

  it('counts a rollout run again on resume once, as its last record: the errored one before it is gone', () => {
    const events: RunEvent[] = [
      { runId: 'run-7', time: at(0), type: 'run:start', method: 'internalize', seed: 7 },
      rollout('t1', 'clean', 1, false, 10, 'model'),
      rollout('t2', 'clean', 1, false, 11, 'model'),
      rollout('t3', 'clean', 0, false, 12),
      { runId: 'run-7', time: at(20), type: 'run:end', status: 'failed', error: 'health' },
      { runId: 'run-7', time: at(30), type: 'run:start', method: 'internalize', seed: 7 },
      rollout('t1', 'clean', 1, true, 31),
      { runId: 'run-7', time: at(40), type: 'run:end', status: 'completed' },
    ];
    const s = summarizeRun(data(events), undefined, undefined);
    // t1 re-ran and passed; t2 was never re-run (its latest record errored).
    expect(s).toMatchObject({ rollouts: 3, rolloutErrors: 1, errorCodes: { model: 1 } });
    expect(s.families[0]?.withSkill).toEqual({ episodes: 1, passed: 1, rate: 1, errored: 1 });
    expect(s.families[0]?.withoutSkill).toEqual({ episodes: 1, passed: 0, rate: 0, errored: 0 });
    expect(s.notes).toEqual([]);
  });

  it('calls a run without run:end in progress, up to its last event, and says so', () => {
    const s = summarizeRun(
      data([
        { runId: 'run-7', time: at(0), type: 'run:start', method: 'evolve:grpo', seed: 3 },
        rollout('t1', 'pick', 1, true, 45),
      ]),
      undefined,
      2,
    );
    expect(s.status).toBe('in progress');
    expect(s.method).toBe('evolve');
    expect(s.durationMs).toBe(45_000);
    expect(s.generations).toBe(2);
    expect(s.notes[0]).toContain('No run:end event');
  });

  it('falls back to the trajectories, config.json and the folder name when events are missing', () => {
    const d = data([]);
    d.config = { method: 'internalize', seed: 5 };
    d.rollouts = [
      {
        id: 'a',
        taskId: 'x',
        family: 'look',
        condition: 0,
        steps: [],
        reward: 1,
        verdict: { score: 1, passed: true },
      },
    ];
    const s = summarizeRun(d, undefined, undefined);
    expect(s).toMatchObject({
      runId: 'run-7',
      method: 'internalize',
      seed: 5,
      status: 'not started',
      rollouts: 1,
    });
    expect(s.families[0]?.withoutSkill).toEqual({ episodes: 1, passed: 1, rate: 1, errored: 0 });
  });

  it('says in the notes that no policy update happened when the trainer updated none', () => {
    const events: RunEvent[] = [
      { runId: 'run-7', time: at(0), type: 'run:start', method: 'internalize', seed: 7 },
      {
        runId: 'run-7',
        time: at(5),
        type: 'validation',
        step: 0,
        validation: { step: 0, families: {} },
        frozenPolicy: true,
      },
      { runId: 'run-7', time: at(9), type: 'run:end', status: 'completed', metrics: { policy_frozen: 1 } },
    ];
    const s = summarizeRun(data(events), buildInternalizeView(events), undefined);
    expect(s.notes.join(' ')).toMatch(/No policy update happened in this run/);
    const plain = summarizeRun(
      data(events.filter((e) => e.type !== 'validation').slice(0, 1)),
      undefined,
      undefined,
    );
    expect(plain.notes.join(' ')).not.toMatch(/No policy update/);
  });
});
