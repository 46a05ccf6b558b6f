import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  formatSkill,
  InvalidArgumentError,
  type Skill,
  type SkillUtility,
  utilityMetadata,
} from '@skillrl/core';
import {
  PROVENANCE_PREFIX,
  readRunSkillVersions,
  type SkillVersion,
  withoutProvenance,
} from './run-skill-versions.js';

/** Which of a run's versions to export: a generation (evolve), the best by measured reward, or the final ones. */
export type SkillSelection = number | 'best' | 'final';

/** One row of a bank manifest (`bank.jsonl`): a skill version and where it came from. */
export interface BankRow {
  name: string;
  hash: string;
  parent?: string;
  run: string;
  method: string;
  generation?: number | 'final';
  task?: string;
  families?: string[];
  final?: boolean;
  candidate?: number;
  carried?: boolean;
  retiredAt?: Record<string, number>;
  reward?: SkillVersion['reward'];
  utility?: SkillUtility;
  /** The folder it was exported to, relative to the export's root; absent for versions not exported. */
  folder?: string;
  /** Why a version of the same name was not exported. */
  skipped?: string;
}

export interface SkillExport {
  to: string;
  exported: BankRow[];
  /** Every version the run holds (the bank), exported or not. */
  bank: BankRow[];
}

const num = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : 'nan');

/** skillrl's provenance of a version as SKILL.md `metadata` (strings, as the Agent Skills spec requires). */
export function provenanceMetadata(v: SkillVersion | BankRow): Record<string, string> {
  const out: Record<string, string> = {
    'skillrl-hash': v.hash,
    'skillrl-run': v.run,
    'skillrl-method': v.method,
  };
  if (v.parent) out['skillrl-parent'] = v.parent;
  if (v.generation !== undefined) out['skillrl-generation'] = String(v.generation);
  if (v.task) out['skillrl-task'] = v.task;
  if (v.candidate !== undefined) out['skillrl-candidate'] = String(v.candidate);
  if (v.retiredAt) {
    out['skillrl-retired-at'] = Object.entries(v.retiredAt)
      .map(([family, step]) => `${family}:${step}`)
      .join(' ');
  }
  if (v.reward) {
    out['skillrl-reward'] = num(v.reward.mean);
    out['skillrl-reward-ci95'] = `${num(v.reward.lo)} ${num(v.reward.hi)}`;
    out['skillrl-reward-episodes'] = String(v.reward.episodes);
  }
  if (v.utility) Object.assign(out, utilityMetadata(v.utility));
  return out;
}

/** The skill with skillrl's provenance in its metadata (the user's own metadata kept). */
export function withProvenance(skill: Skill, provenance: Record<string, string>): Skill {
  const own = withoutProvenance(skill);
  return { ...own, metadata: { ...(own.metadata ?? {}), ...provenance } };
}

const rowOf = (v: SkillVersion): BankRow => {
  const { skill: _s, file: _f, ...row } = v;
  return row;
};

function pick(all: SkillVersion[], selection: SkillSelection): SkillVersion[] {
  if (selection === 'final') return all.filter((v) => v.final);
  // A generation's or the best skill is one a task carried: a candidate that lost is in the bank only.
  const versions = all.filter((v) => v.carried !== false);
  if (selection === 'best') return versions;
  const chosen = versions.filter((v) => v.generation === selection);
  if (chosen.length === 0) {
    const known = [...new Set(versions.map((v) => v.generation).filter((g) => typeof g === 'number'))];
    throw new InvalidArgumentError(
      '--generation',
      `the run has no skill of generation ${selection}; it has ${known.join(', ') || 'none'} (or use best, final)`,
    );
  }
  return chosen;
}

/** Higher measured reward first; then more episodes; then the later version. */
const better = (a: SkillVersion, b: SkillVersion) =>
  (b.reward?.mean ?? -1) - (a.reward?.mean ?? -1) || (b.reward?.episodes ?? 0) - (a.reward?.episodes ?? 0);

/**
 * A run's skills as a folder that any Agent Skills client loads: `<to>/<name>/SKILL.md` (one version per name:
 * of the selected versions sharing a name, the best measured), each with its provenance in `metadata`, and
 * `<to>/bank.jsonl`: every version the run holds, with its parent, reward and utility, and where it went.
 */
export function exportSkills(
  runDir: string,
  options: { to: string; generation?: SkillSelection },
): SkillExport {
  const to = resolve(options.to);
  const versions = readRunSkillVersions(resolve(runDir));
  if (versions.length === 0) {
    throw new InvalidArgumentError('run-dir', `${runDir} holds no skills (skills/ is empty)`);
  }
  const selected = pick(versions, options.generation ?? 'final').sort(better);
  const byName = new Map<string, SkillVersion>();
  for (const v of selected) if (!byName.has(v.name)) byName.set(v.name, v);
  mkdirSync(to, { recursive: true });
  const exported: BankRow[] = [];
  for (const [name, v] of byName) {
    const folder = join(to, name);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), formatSkill(withProvenance(v.skill, provenanceMetadata(v))));
    exported.push({ ...rowOf(v), folder: name });
  }
  const exportedHashes = new Map(exported.map((r) => [`${r.hash}/${r.task ?? ''}`, r]));
  const bank: BankRow[] = versions.map((v) => {
    const done = exportedHashes.get(`${v.hash}/${v.task ?? ''}`);
    if (done) return done;
    const row = rowOf(v);
    const chosen = byName.get(v.name);
    if (selected.includes(v) && chosen && chosen !== v) {
      row.skipped = `another ${v.name} was exported (${chosen.hash}, reward ${num(chosen.reward?.mean ?? Number.NaN)})`;
    }
    return row;
  });
  writeFileSync(join(to, 'bank.jsonl'), `${bank.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return { to, exported, bank };
}

export { PROVENANCE_PREFIX };
