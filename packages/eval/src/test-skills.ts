import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Skill, Trajectory } from '@skillrl/core';
import { formatSkill, InvalidArgumentError, readSkillFolder } from '@skillrl/core';
import {
  type BankRow,
  contentHash,
  PROVENANCE_PREFIX,
  pairedUtility,
  provenanceMetadata,
  type SkillUtility,
  withProvenance,
} from '@skillrl/export';
import { loadConfig, releaseAgent, setupBasics } from '@skillrl/orchestrator';
import { type EvaluateOptions, evaluateWith } from './evaluate.js';
import { evaluationTasks } from './evaluation-tasks.js';

export interface SkillTestResult {
  name: string;
  hash: string;
  /** The families it was tested on. */
  families: string[];
  utility?: SkillUtility;
}

export interface SkillTest {
  dir: string;
  config: string;
  skills: SkillTestResult[];
}

/** The families a skill is for: its own `families`, else every family (a general skill). */
function familiesOf(skill: Skill, all: readonly string[]): string[] {
  const own = skill.families?.filter((f) => all.includes(f)) ?? [];
  return own.length > 0 ? own : [...all];
}

/**
 * A folder's skills measured on a config's tasks: each task run with and without its family's skill (the
 * config's agent, `episodes` per condition), and each skill's utility — with − without success, paired by
 * task, with a 95 % interval — written into its SKILL.md `metadata` and the folder's `bank.jsonl` (a row per
 * test). The same quantity SKILLC's curriculum reads from its paired validation.
 */
export async function testSkills(
  dir: string,
  configFile: string,
  options: Pick<EvaluateOptions, 'episodes' | 'onProgress' | 'signal'> & {
    split?: string;
    limit?: number;
  } = {},
): Promise<SkillTest> {
  const root = resolve(dir);
  const skills = readSkillFolder(root, 'skills-dir');
  const loaded = loadConfig(configFile);
  const basics = await setupBasics(loaded.config, loaded.path);
  try {
    const families = [...basics.adapter.value.families];
    // A family's own skill first (two for one family is an error); a general skill (no families) for the rest.
    const forFamily: Record<string, Skill> = {};
    for (const skill of skills.filter((s) => s.families?.some((f) => families.includes(f)))) {
      for (const family of familiesOf(skill, families)) {
        const other = forFamily[family];
        if (other) {
          throw new InvalidArgumentError(
            'skills-dir',
            `two skills are for family "${family}" (${other.name}, ${skill.name}): keep one, or change their families`,
          );
        }
        forFamily[family] = skill;
      }
    }
    for (const skill of skills.filter((s) => !s.families?.length)) {
      for (const family of families) forFamily[family] ??= skill;
    }
    const chosen = options.split
      ? evaluationTasks(loaded.config, {
          split: options.split,
          ...(options.limit !== undefined ? { limit: options.limit } : {}),
        }).tasks
      : {
          ...evaluationTasks(loaded.config).tasks,
          ...(options.limit !== undefined ? { limit: options.limit } : {}),
        };
    const runs: Trajectory[] = [];
    await evaluateWith(
      loaded.config,
      basics,
      {
        skills: forFamily,
        tasks: chosen,
        episodes: options.episodes ?? 1,
        onTrajectory: (t) => runs.push(t),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      { target: loaded.path, again: `skillrl skills test ${dir} --config ${configFile}` },
    );
    const results: SkillTestResult[] = [];
    const bankFile = join(root, 'bank.jsonl');
    const rows: BankRow[] = existsSync(bankFile)
      ? readFileSync(bankFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as BankRow)
      : [];
    for (const skill of skills) {
      const mine = Object.entries(forFamily)
        .filter(([, s]) => s === skill)
        .map(([f]) => f);
      const utility = pairedUtility(
        runs.filter((t) => mine.includes(t.family)),
        chosen.split,
      );
      const hash = contentHash(skill);
      results.push({ name: skill.name, hash, families: mine, ...(utility ? { utility } : {}) });
      if (!utility) continue;
      // Into the skill's metadata (its other provenance kept) and the bank: the measured utility.
      const own = Object.fromEntries(
        Object.entries(skill.metadata ?? {}).filter(
          ([k]) => k.startsWith(PROVENANCE_PREFIX) && !k.startsWith('skillrl-utility'),
        ),
      );
      const file = existsSync(join(root, skill.name, 'SKILL.md'))
        ? join(root, skill.name, 'SKILL.md')
        : existsSync(join(root, 'SKILL.md'))
          ? join(root, 'SKILL.md')
          : undefined;
      if (file) {
        const provenance = { ...own, ...provenanceMetadata({ ...rowFor(skill, hash, rows), utility }) };
        writeFileSync(file, formatSkill(withProvenance(skill, provenance)));
      }
      rows.push({ ...rowFor(skill, hash, rows), utility, folder: skill.name });
    }
    writeFileSync(bankFile, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    return { dir: root, config: loaded.path, skills: results };
  } finally {
    await releaseAgent(basics.agent.value);
  }
}

/** The bank row a test adds: the exported row of the same hash (its provenance), or the skill alone. */
function rowFor(skill: Skill, hash: string, rows: readonly BankRow[]): BankRow {
  const known = [...rows].reverse().find((r) => r.hash === hash);
  const meta = skill.metadata ?? {};
  const base: BankRow = known
    ? { ...known }
    : {
        name: skill.name,
        hash,
        run: meta['skillrl-run'] ?? 'none',
        method: meta['skillrl-method'] ?? 'none',
      };
  delete base.utility;
  delete base.skipped;
  return base;
}
