import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainFileLines } from '@skillrl/core';
import { type BankRow, readRunSkillVersions, type SkillVersion } from '@skillrl/export';
import { diffSkills, type SkillDiff } from '@skillrl/report';
import { resolveInside } from './inside-dir.js';

/** One skill version as the bank view lists it (its text is fetched when opened). */
export interface SkillVersionRow {
  index: number;
  name: string;
  hash: string;
  parent?: string;
  /** The parent's row in this list, when the run holds it. */
  parentIndex?: number;
  generation?: number | 'final';
  task?: string;
  families?: string[];
  final?: boolean;
  candidate?: number;
  carried?: boolean;
  retiredAt?: Record<string, number>;
  reward?: { mean: number; lo: number | null; hi: number | null; episodes: number };
  utility?: {
    split: string;
    withSkill: number;
    withoutSkill: number;
    gap: number;
    lo: number | null;
    hi: number | null;
    pairedBy?: string;
    pairs: number;
    episodes: number;
  };
  /** Relative to the run directory. */
  file: string;
}

export interface SkillVersionDetail {
  version: SkillVersionRow;
  /** The SKILL.md as the run keeps it. */
  text: string;
  parent?: SkillVersionRow;
  /** Line diff from the parent's text, in hunks. */
  diff?: SkillDiff;
  /** Why the text could not be shown (a missing file, a link out of the folder). */
  problem?: string;
}

/** A running run's bank is read again at most this often: reading it scans the run's rollouts. */
const LIVE_REREAD_MS = 5000;

type Source = Pick<SkillVersion, 'name' | 'hash'> & { file?: string } & Partial<
    Omit<BankRow, 'name' | 'hash'>
  >;

/** bank.jsonl's rows; a line still being written (or damaged) is left out, the rest shown. */
function readBankFile(path: string): Source[] {
  const rows: Source[] = [];
  for (const line of plainFileLines(path)) {
    if (line.kind !== 'line' || line.text.trim() === '') continue;
    try {
      const row = JSON.parse(line.text) as Source;
      if (typeof row?.name === 'string' && typeof row?.hash === 'string') rows.push(row);
    } catch {
      // skipped: a damaged line says nothing about the others
    }
  }
  return rows;
}

/**
 * A run's skill bank: every version with its parent, reward and paired utility. A finished run wrote it to
 * `bank.jsonl` (read as it is); a running one has not yet, so the versions are read from its skill folders
 * and rollouts with `@skillrl/export`'s `readRunSkillVersions` — the same reader that wrote the file.
 */
export class SkillBank {
  versions: SkillVersionRow[] = [];
  source: 'bank.jsonl' | 'skill folders' | 'none' = 'none';
  problem: string | undefined;
  private readAt = 0;
  private signature = '';

  constructor(
    private readonly dir: string,
    private readonly realRoot: string,
  ) {}

  refresh(signature: string, ended: boolean): void {
    if (signature === this.signature) return;
    const bankFile = join(this.dir, 'bank.jsonl');
    const hasBank = existsSync(bankFile);
    if (!hasBank && !ended && Date.now() - this.readAt < LIVE_REREAD_MS && this.source !== 'none') return;
    this.signature = signature;
    this.readAt = Date.now();
    let rows: Source[];
    try {
      if (hasBank) {
        rows = readBankFile(bankFile);
        this.source = 'bank.jsonl';
      } else {
        rows = readRunSkillVersions(this.dir);
        this.source = 'skill folders';
      }
      this.problem = undefined;
    } catch (error) {
      this.problem = (error as Error).message;
      return;
    }
    this.versions = rows.map((r, index) => toRow(r, index));
    // A parent is the latest version before this one with the parent's hash, of the same task (evolve's
    // parents are per task, and the same text can be two tasks' versions, or proposed again later).
    const latest = new Map<string, number>();
    for (const v of this.versions) {
      if (v.parent) {
        const at = latest.get(`${v.task ?? ''}\u0000${v.parent}`) ?? latest.get(`\u0000*${v.parent}`);
        if (at !== undefined) v.parentIndex = at;
      }
      latest.set(`${v.task ?? ''}\u0000${v.hash}`, v.index);
      latest.set(`\u0000*${v.hash}`, v.index);
    }
  }

  detail(index: number): SkillVersionDetail | undefined {
    const version = this.versions[index];
    if (!version) return undefined;
    const read = (v: SkillVersionRow): { text: string } | { problem: string } => {
      try {
        return { text: readFileSync(resolveInside(this.dir, this.realRoot, v.file), 'utf8') };
      } catch (error) {
        return { problem: (error as Error).message };
      }
    };
    const own = read(version);
    if ('problem' in own) return { version, text: '', problem: own.problem };
    const parent = version.parentIndex === undefined ? undefined : this.versions[version.parentIndex];
    const before = parent ? read(parent) : undefined;
    return {
      version,
      text: own.text,
      ...(parent ? { parent } : {}),
      ...(parent && before && 'text' in before
        ? { diff: diffSkills(before.text, own.text, { from: parent.file, to: version.file }) }
        : {}),
    };
  }
}

function toRow(r: Source, index: number): SkillVersionRow {
  const row: SkillVersionRow = { index, name: r.name, hash: r.hash, file: r.file ?? '' };
  if (r.parent) row.parent = r.parent;
  if (r.generation !== undefined) row.generation = r.generation;
  if (r.task) row.task = r.task;
  if (r.families) row.families = r.families;
  if (r.final) row.final = true;
  if (r.candidate !== undefined) row.candidate = r.candidate;
  if (r.carried !== undefined) row.carried = r.carried;
  if (r.retiredAt) row.retiredAt = r.retiredAt;
  if (r.reward) row.reward = r.reward as SkillVersionRow['reward'];
  if (r.utility) row.utility = r.utility as SkillVersionRow['utility'];
  return row;
}
