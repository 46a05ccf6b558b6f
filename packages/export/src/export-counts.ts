import type { StreamReadNote } from '@skillrl/core';

/** What one export met while reading, for its notes and its result. */
export interface ExportCounts {
  /** Trained trajectories (internalize) or candidates (evolve) that gave at least one row. */
  sources: number;
  /** internalize: turns without a chat record (trl) */
  turnsWithoutRecord: number;
  trajectoriesWithoutRecord: number;
  trajectoriesWithoutIds: number;
  perTurn: number;
  turns: number;
  /** What the stream readers skipped (a line still being written, a damaged line or segment). */
  read: StreamReadNote[];
  /** Advantage records that could not be read: the unit each was for, when its key survived. */
  lostUpdates: LostUpdate[];
  /** Trained trajectories (internalize) or candidate records (evolve) listed in advantages but not found. */
  sourcesMissing: number;
  /**
   * Trained trajectories whose latest record ended in an error (`trajectory.error`): left out, never
   * exported (their reward is a placeholder). Rows of older runs list them; newer runs leave them out.
   */
  errored: number;
  /** Rows of advantages.jsonl with no advantage (null: the update gave the trajectory or candidate none). */
  noAdvantage: number;
  /** Trajectories whose step advantages do not match their steps (broadcast their advantage instead). */
  stepMismatch: number;
}

/** An advantages line the export could not use, and what it cost. */
export interface LostUpdate {
  /** `advantages.jsonl` (or its segment), as the reader names it. */
  file: string;
  /** Torn (an unfinished last line), or damaged at a line (`reason`: not JSON, or a field that is wrong). */
  how: { kind: 'torn'; bytes: number } | { kind: 'damaged'; line: number; reason: string };
  /** The unit the record was for (`s4`, `g2`), read from the start of the line; undefined if torn before it. */
  unit: string | undefined;
  /** Rows the unit's stored rollouts (or candidates) would have given, and how many of those sources. */
  rows: number;
  sources: number;
}

export function emptyCounts(): ExportCounts {
  return {
    sources: 0,
    turnsWithoutRecord: 0,
    trajectoriesWithoutRecord: 0,
    trajectoriesWithoutIds: 0,
    perTurn: 0,
    turns: 0,
    read: [],
    lostUpdates: [],
    sourcesMissing: 0,
    errored: 0,
    noAdvantage: 0,
    stepMismatch: 0,
  };
}

/** The read options that collect what a stream reader skipped into `counts`. */
export const collectingNotes = (counts: ExportCounts) => ({
  onNote: (note: StreamReadNote) => counts.read.push(note),
});

/** The lost update a source of `unit` belongs to, if its advantages could not be read. */
export const lostUpdateOf = (counts: ExportCounts, unit: string): LostUpdate | undefined =>
  counts.lostUpdates.find((l) => l.unit === unit);
