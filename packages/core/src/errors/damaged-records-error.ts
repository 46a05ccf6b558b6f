import { type DamagedRecord, formatDamagedRecord } from '../run-store/check-run-streams.js';
import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.damaged-records');

/** Records listed in the message; the rest are counted (all of them are in `records` and under `--json`). */
const LISTED = 20;

/**
 * A run directory holds records its readers cannot use (core's `checkRunStreams`): a complete line that is
 * not JSON, or JSON that is not a record of its stream. Thrown before anything runs or is written, naming
 * each (file:line: reason) and the command that moves them out and goes on.
 */
export class DamagedRecordsError extends SkillrlError {
  readonly dir: string;
  readonly records: DamagedRecord[];

  constructor(dir: string, records: DamagedRecord[], fix: string) {
    const n = records.length;
    const listed = records.slice(0, LISTED).map((r) => `  ${formatDamagedRecord(r)}`);
    if (n > LISTED) listed.push(`  … and ${n - LISTED} more`);
    super(
      'SKILLRL_DAMAGED_RECORDS',
      `${dir} holds ${n} damaged record${n === 1 ? '' : 's'} that the run cannot read back (nothing was run or written):\n${listed.join('\n')}\n${fix}`,
    );
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'DamagedRecordsError';
    this.dir = dir;
    this.records = records;
  }

  static override isInstance(error: unknown): error is DamagedRecordsError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
