import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Skill, Trajectory } from '@skillrl/core';
import {
  InvalidArgumentError,
  parseSkill,
  readRunStream,
  rolloutErrored,
  skillHash,
  taskSlug,
} from '@skillrl/core';
import { tInterval } from '../stats/paired-stats.js';
import { pairedUtility, type SkillUtility } from './skill-utility.js';

/** One version of a skill a run wrote, with where it came from and how it did. */
export interface SkillVersion {
  name: string;
  /** `skillHash` of the skill without skillrl's provenance metadata (what rollouts record). */
  hash: string;
  /** The version it was revised from (evolve: the same task's carried skill one generation earlier). */
  parent?: string;
  run: string;
  method: string;
  /** Evolve: the generation that carried it (`final`: the skill each task ended with). */
  generation?: number | 'final';
  /** The skill the run (or, evolve, the task) ended with. */
  final?: boolean;
  /** Evolve: the task (slug) it was evolved for. */
  task?: string;
  /** Internalize: the families it is for. */
  families?: string[];
  /** Where the run keeps it, relative to the run directory. */
  file: string;
  skill: Skill;
  /** Mean reward of the run's scored episodes under it, with a 95 % t interval over them. */
  reward?: { mean: number; lo: number; hi: number; episodes: number };
  /** Internalize: the step at which each of its families was retired for good (SKILLC's curriculum). */
  retiredAt?: Record<string, number>;
  /** With − without, paired by task, where the run measured both (internalize's last paired validation). */
  utility?: SkillUtility;
}

/** skillrl's own provenance fields in a skill's metadata: not part of what the skill says. */
export const PROVENANCE_PREFIX = 'skillrl-';

/** The skill without skillrl's provenance metadata: what its hash is computed on. */
export function withoutProvenance(skill: Skill): Skill {
  if (!skill.metadata) return skill;
  const kept = Object.fromEntries(
    Object.entries(skill.metadata).filter(([k]) => !k.startsWith(PROVENANCE_PREFIX)),
  );
  const { metadata: _, ...rest } = skill;
  return Object.keys(kept).length > 0 ? { ...rest, metadata: kept } : rest;
}

export const contentHash = (skill: Skill): string => skillHash(withoutProvenance(skill));

function readSkill(file: string): Skill {
  return parseSkill(readFileSync(file, 'utf8'), { source: file });
}

/** `<dir>/<name>/SKILL.md` files under `dir`, or under each `<dir>/<task>/` when `nested`. */
function skillFiles(dir: string, nested: boolean): { task?: string; name: string; file: string }[] {
  if (!existsSync(dir)) return [];
  const out: { task?: string; name: string; file: string }[] = [];
  for (const first of readdirSync(dir).sort()) {
    if (nested) {
      const taskDir = join(dir, first);
      for (const name of existsSync(taskDir) ? readdirSync(taskDir).sort() : []) {
        const file = join(taskDir, name, 'SKILL.md');
        if (existsSync(file)) out.push({ task: first, name, file });
      }
    } else {
      const file = join(dir, first, 'SKILL.md');
      if (existsSync(file)) out.push({ name: first, file });
    }
  }
  return out;
}

function rewardOf(runs: readonly Trajectory[]): SkillVersion['reward'] {
  const scored = runs.filter((t) => !rolloutErrored(t)).map((t) => t.reward);
  if (scored.length === 0) return undefined;
  const ci = tInterval(scored);
  return { mean: ci.mean, lo: ci.lo, hi: ci.hi, episodes: scored.length };
}

/**
 * Every skill version a run directory holds, oldest first: evolve's carried skill of each task per generation
 * (`skills/<g>/<task>/<name>`) and the skill each task ended with (`skills/final/...`), or internalize's
 * skills (`skills/0/<name>`, `skills/final/<name>`); each with the mean reward of the run's episodes under it
 * and, where the run measured it, its paired utility.
 */
export function readRunSkillVersions(runDir: string): SkillVersion[] {
  const manifestFile = join(runDir, 'run.json');
  if (!existsSync(manifestFile)) {
    throw new InvalidArgumentError('run-dir', `${runDir} is not a run directory (no run.json)`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { runId: string; method: string };
  // The latest record per rollout id (a rerun replaces an errored one), kept small: a long run holds tens of
  // thousands of rollouts, and only these fields are read.
  const latest = new Map<string, Trajectory>();
  for (const t of readRunStream<Trajectory>(runDir, 'rollouts')) {
    const slim: Trajectory = {
      id: t.id,
      taskId: t.taskId,
      family: t.family,
      condition: t.condition,
      steps: [],
      reward: t.reward,
      verdict: { score: t.verdict.score, passed: t.verdict.passed },
      ...(t.skill ? { skill: t.skill } : {}),
      ...(t.error ? { error: t.error } : {}),
    };
    latest.set(t.id, slim);
  }
  const runs = [...latest.values()];
  const underHash = new Map<string, Trajectory[]>();
  for (const t of runs) {
    if (t.condition !== 1 || !t.skill?.hash) continue;
    const key = manifest.method === 'evolve' ? `${taskSlug(t.taskId)}/${t.skill.hash}` : t.skill.hash;
    underHash.set(key, [...(underHash.get(key) ?? []), t]);
  }
  const skillsDir = join(runDir, 'skills');
  const versions: SkillVersion[] = [];
  if (manifest.method === 'evolve') {
    const generations = existsSync(skillsDir)
      ? readdirSync(skillsDir)
          .filter((d) => /^\d+$/.test(d))
          .map(Number)
          .sort((a, b) => a - b)
      : [];
    const lastByTask = new Map<string, SkillVersion>();
    const add = (g: number | 'final') => {
      for (const { task, name, file } of skillFiles(join(skillsDir, String(g)), true)) {
        const skill = readSkill(file);
        const hash = contentHash(skill);
        const before = lastByTask.get(task as string);
        if (before?.hash === hash) {
          // Carried unchanged (or the task's final skill): the same version.
          if (g === 'final') before.final = true;
          continue;
        }
        const version: SkillVersion = {
          name,
          hash,
          run: manifest.runId,
          method: manifest.method,
          generation: g,
          task: task as string,
          file: join('skills', String(g), task as string, name, 'SKILL.md'),
          skill,
        };
        if (before) version.parent = before.hash;
        if (g === 'final') version.final = true;
        const reward = rewardOf(underHash.get(`${task}/${hash}`) ?? []);
        if (reward) version.reward = reward;
        versions.push(version);
        lastByTask.set(task as string, version);
      }
    };
    for (const g of generations) add(g);
    add('final');
  } else {
    // Internalize: the skills it started with and those left at the end; utility from the last paired
    // validation (its `v<step>` rollouts) of each skill's families.
    const validations = runs.filter((t) => /^v\d+\//.test(t.id));
    const lastStep = Math.max(-1, ...validations.map((t) => Number(/^v(\d+)\//.exec(t.id)?.[1])));
    const lastValidation = validations.filter((t) => t.id.startsWith(`v${lastStep}/`));
    // The step each family was first reported retired (validation events carry the curriculum's state).
    const retired = new Map<string, number>();
    for (const e of readRunStream<{ type: string; step?: number; curriculum?: { retired?: string[] } }>(
      runDir,
      'events',
    )) {
      if (e.type !== 'validation' || typeof e.step !== 'number') continue;
      for (const family of e.curriculum?.retired ?? []) if (!retired.has(family)) retired.set(family, e.step);
    }
    const seen = new Map<string, SkillVersion>();
    for (const dir of ['0', 'final']) {
      for (const { name, file } of skillFiles(join(skillsDir, dir), false)) {
        const skill = readSkill(file);
        const hash = contentHash(skill);
        const known = seen.get(hash);
        if (known) {
          if (dir === 'final') known.final = true;
          continue;
        }
        const version: SkillVersion = {
          name,
          hash,
          run: manifest.runId,
          method: manifest.method,
          file: join('skills', dir, name, 'SKILL.md'),
          skill,
          ...(skill.families ? { families: skill.families } : {}),
          ...(dir === 'final' ? { final: true } : {}),
        };
        const reward = rewardOf(underHash.get(hash) ?? []);
        if (reward) version.reward = reward;
        const retiredAt = Object.fromEntries(
          (skill.families ?? []).filter((f) => retired.has(f)).map((f) => [f, retired.get(f) as number]),
        );
        if (Object.keys(retiredAt).length > 0) version.retiredAt = retiredAt;
        const families = new Set(skill.families ?? []);
        const mine = lastValidation.filter((t) => families.size === 0 || families.has(t.family));
        const utility = lastStep >= 0 ? pairedUtility(mine, `v${lastStep}`) : undefined;
        if (utility) version.utility = utility;
        versions.push(version);
        seen.set(hash, version);
      }
    }
  }
  return versions;
}
