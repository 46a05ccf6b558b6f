import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Skill, Trajectory } from '@skillrl/core';
import {
  InvalidArgumentError,
  pairedStats,
  pairedUtility,
  parseSkill,
  readRunStream,
  rolloutErrored,
  type SkillUtility,
  skillHash,
  taskSlug,
} from '@skillrl/core';

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
  /** Evolve: the editor's candidate index in its generation (a candidate that was carried has one too). */
  candidate?: number;
  /** Evolve: whether it was carried into the next generation (false: a candidate that lost). */
  carried?: boolean;
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
  /**
   * With − without, paired by task, where the run measured both: internalize's last paired validation; evolve's
   * paired final evaluation (`finalPaired`) for the skills tasks ended with.
   */
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

/** Where an evolve run keeps candidate `k` of a task in generation `g` (an Agent Skills folder, by name). */
export const candidateFile = (g: number, taskId: string, k: number, name: string): string =>
  join('candidates', String(g), taskSlug(taskId), String(k), name, 'SKILL.md');

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
  const ci = pairedStats.tInterval(scored);
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
    // The final evaluation's runs (with and, `finalPaired`, without each task's final skill), by task.
    const finalRuns = runs.filter((t) => t.id.startsWith('final/'));
    const versionOf = (g: number | 'final', task: string, name: string, file: string, skill: Skill) => {
      const hash = contentHash(skill);
      const version: SkillVersion = {
        name,
        hash,
        run: manifest.runId,
        method: manifest.method,
        generation: g,
        task,
        file,
        skill,
      };
      const before = lastByTask.get(task);
      if (before) version.parent = before.hash;
      const reward = rewardOf(underHash.get(`${task}/${hash}`) ?? []);
      if (reward) version.reward = reward;
      return version;
    };
    const add = (g: number | 'final') => {
      // The editor's candidates of this generation, each revised from the task's carried skill (folders
      // `candidates/<g>/<task>/<k>/<name>`); the one carried is marked when the carried skill is read below.
      const fresh = new Map<string, SkillVersion>();
      const candidatesDir = join(runDir, 'candidates', String(g));
      for (const task of typeof g === 'number' && existsSync(candidatesDir)
        ? readdirSync(candidatesDir).sort()
        : []) {
        const ks = readdirSync(join(candidatesDir, task))
          .filter((k) => /^\d+$/.test(k))
          .sort((a, b) => Number(a) - Number(b));
        for (const k of ks) {
          for (const { name, file } of skillFiles(join(candidatesDir, task, k), false)) {
            const version = versionOf(
              g,
              task,
              name,
              join('candidates', String(g), task, k, name, 'SKILL.md'),
              readSkill(file),
            );
            if (fresh.has(`${task}/${version.hash}`)) continue; // the same text proposed twice: one version
            version.candidate = Number(k);
            version.carried = false;
            fresh.set(`${task}/${version.hash}`, version);
            versions.push(version);
          }
        }
      }
      for (const { task, name, file } of skillFiles(join(skillsDir, String(g)), true)) {
        const skill = readSkill(file);
        const hash = contentHash(skill);
        const before = lastByTask.get(task as string);
        if (before?.hash === hash) {
          // Carried unchanged (or the task's final skill): the same version.
          if (g === 'final') before.final = true;
          continue;
        }
        const proposed = fresh.get(`${task}/${hash}`);
        if (proposed) {
          proposed.carried = true;
          lastByTask.set(task as string, proposed);
          continue;
        }
        const version = versionOf(
          g,
          task as string,
          name,
          join('skills', String(g), task as string, name, 'SKILL.md'),
          skill,
        );
        if (g === 'final') version.final = true;
        else version.carried = true;
        versions.push(version);
        lastByTask.set(task as string, version);
      }
    };
    for (const g of generations) add(g);
    add('final');
    // Each final version's utility: its tasks' final runs with it against those without (paired by task, or
    // by episode when it is one task's own).
    for (const v of versions.filter((x) => x.final)) {
      const tasksOfIt = new Set(
        [...lastByTask.entries()].filter(([, last]) => last === v).map(([task]) => task),
      );
      const mine = finalRuns.filter(
        (t) => tasksOfIt.has(taskSlug(t.taskId)) && (t.condition === 0 || t.skill?.hash === v.hash),
      );
      const utility = pairedUtility(mine, 'final');
      if (utility) v.utility = utility;
    }
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
