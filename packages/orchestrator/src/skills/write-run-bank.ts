import { type BankRow, readRunSkillVersions } from '@skillrl/export';
import type { RunSession } from '../run/run-session.js';

/** The bank's manifest file a finished run writes (one JSON row per skill version); the report reads it. */
export const BANK_FILE = 'bank.jsonl';

/**
 * Writes the run's skill bank (`bank.jsonl`: every version the run holds, its parent, the mean reward under it
 * and, where measured, its paired utility; `file`: where the run keeps its SKILL.md) when the run completes.
 * A run without skills writes none.
 */
export function writeRunBank(session: RunSession): number {
  const versions = readRunSkillVersions(session.dir);
  if (versions.length === 0) return 0;
  const rows = versions.map(({ skill: _skill, ...row }): BankRow & { file: string } => row);
  session.store.writeFile(BANK_FILE, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return rows.length;
}
