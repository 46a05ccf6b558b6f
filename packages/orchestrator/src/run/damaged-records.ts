import { join } from 'node:path';
import {
  checkRunStreams,
  DAMAGED_DIR,
  DamagedRecordsError,
  dropDamagedRecords,
  formatDamagedRecord,
} from '@skillrl/core';

/** Records named in the note of what was moved; the rest are counted. */
const LISTED = 20;

export interface DamagedRecordsOptions {
  /** Move them to `damaged/` and go on (`skillrl resume --drop-damaged`). Default: refuse. */
  drop?: boolean;
  /** Which command asks: the refusal names how to go on from it. */
  command: 'resume' | 'eval';
  onWarning?: (message: string) => void;
}

/** How to go on from a refusal, with the run directory itself (never a placeholder). */
function fixFor(dir: string, command: DamagedRecordsOptions['command']): string {
  const kept = join(dir, DAMAGED_DIR, '<stream>.jsonl');
  const move = `\`skillrl resume ${dir} --drop-damaged\` moves each out of its stream into ${kept} (the line exactly as it was, with its file, line and reason) and rewrites the stream without it`;
  return command === 'resume'
    ? `To go on without them: ${move}, then continues the run (a dropped rollout of a unit not yet checkpointed is run again).`
    : `${move}; a run that had not finished then continues. Evaluate again afterwards.`;
}

/**
 * Checks a run directory's streams before a resume or an evaluation reads them (core's `checkRunStreams`):
 * one damaged record would otherwise stop the run after it had redone its work, with an error naming no file.
 * Refuses with `DamagedRecordsError` (file:line: reason for each, and the command that goes on) before
 * anything is run or written; with `drop`, moves them out (`dropDamagedRecords`) and says what moved.
 */
export function checkDamagedRecords(dir: string, options: DamagedRecordsOptions): void {
  const damaged = checkRunStreams(dir);
  if (damaged.length === 0) return;
  if (!options.drop) throw new DamagedRecordsError(dir, damaged, fixFor(dir, options.command));
  const dropped = dropDamagedRecords(dir);
  const n = dropped.records.length;
  const listed = dropped.records.slice(0, LISTED).map(formatDamagedRecord);
  if (n > LISTED) listed.push(`… and ${n - LISTED} more`);
  options.onWarning?.(
    `moved ${n} damaged record${n === 1 ? '' : 's'} out of the streams, kept exactly in ${dropped.kept.map((k) => join(dir, k)).join(', ')}: ${listed.join('; ')}`,
  );
}
