import { type Condition, createRng, InvalidArgumentError, type Skill, type Task } from '@skillrl/core';

/**
 * Which skill(s) each task runs with. A single skill applies to every task; an array is a set of candidate
 * skills (Skill-R1), each evaluated in its own group; a record is looked up by task id, then by family; a
 * function decides per task. `undefined` (or no entry) means the task runs without a skill.
 */
export type SkillSource =
  | Skill
  | Skill[]
  | Record<string, Skill | Skill[]>
  | ((task: Task) => Skill | Skill[] | undefined);

export interface PairingOptions {
  /** Share of each group run with the skill (condition 1); the rest run without it. */
  rho: number;
}

export interface PlanRolloutsOptions {
  tasks: readonly Task[];
  skills?: SkillSource;
  /** Episodes per group (per task, and per candidate skill when there are several). */
  groupSize: number;
  pairing?: PairingOptions;
  seed?: number;
}

/** One episode to run, fixed before any model call. */
export interface PlannedEpisode {
  /** `${taskId}:c${condition}:i${index}`, with `:k${candidate}` after the task id for candidate skills. */
  id: string;
  task: Task;
  condition: Condition;
  /** Position inside the group, 0 … groupSize − 1. */
  index: number;
  groupId: string;
  candidate?: number;
  skill?: Skill;
  seed: number;
}

function isSkill(value: unknown): value is Skill {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as Skill).name === 'string' &&
    typeof (value as Skill).body === 'string'
  );
}

function skillsFor(task: Task, source: SkillSource | undefined): { skills: Skill[]; candidates: boolean } {
  if (!source) return { skills: [], candidates: false };
  let found: Skill | Skill[] | undefined;
  if (typeof source === 'function') found = source(task);
  else if (Array.isArray(source) || isSkill(source)) found = source;
  else found = Object.hasOwn(source, task.id) ? source[task.id] : source[task.family];
  if (!found) return { skills: [], candidates: false };
  return Array.isArray(found) ? { skills: found, candidates: true } : { skills: [found], candidates: false };
}

/** Number of skill-injected episodes in a group of `n`: ρ·n rounded half up (ρ = 0.5, n = 3 gives 2). */
export function withSkillCount(rho: number, n: number): number {
  // The epsilon keeps products like 0.7 · 10 = 7.000000000000001 or 0.35 · 10 = 3.4999999999999996 exact.
  return Math.min(n, Math.floor(rho * n + 0.5 + 1e-9));
}

/**
 * The group structure of a rollout batch, a pure function of the tasks, the skills and the seed: for each
 * task (× candidate) a group of `groupSize` episodes, of which `withSkillCount(ρ, n)` run with the skill.
 * Which positions get the skill is a seeded shuffle per group; each episode's seed is derived from its id.
 * Finishing order never changes any of this.
 */
export function planRollouts(options: PlanRolloutsOptions): PlannedEpisode[] {
  const { tasks, groupSize, pairing } = options;
  if (!Number.isInteger(groupSize) || groupSize < 1) {
    throw new InvalidArgumentError('groupSize', `expected an integer >= 1, got ${groupSize}`);
  }
  if (pairing && !(pairing.rho >= 0 && pairing.rho <= 1)) {
    throw new InvalidArgumentError('pairing.rho', `expected a share in [0, 1], got ${pairing.rho}`);
  }
  const root = createRng(options.seed ?? 0);
  const seen = new Set<string>();
  const plan: PlannedEpisode[] = [];
  for (const task of tasks) {
    if (seen.has(task.id)) {
      throw new InvalidArgumentError(
        'tasks',
        `task id "${task.id}" appears twice; trajectory ids would collide`,
      );
    }
    seen.add(task.id);
    const { skills, candidates } = skillsFor(task, options.skills);
    const groups: { skill?: Skill; candidate?: number }[] =
      skills.length === 0
        ? [{}]
        : skills.map((skill, k) => (candidates ? { skill, candidate: k } : { skill }));
    for (const group of groups) {
      const prefix = group.candidate === undefined ? task.id : `${task.id}:k${group.candidate}`;
      const nWith = !group.skill ? 0 : pairing ? withSkillCount(pairing.rho, groupSize) : groupSize;
      const order = root.fork(`group:${prefix}`).shuffle(Array.from({ length: groupSize }, (_, i) => i));
      const withSkill = new Set(order.slice(0, nWith));
      for (let index = 0; index < groupSize; index++) {
        const condition: Condition = withSkill.has(index) ? 1 : 0;
        const id = `${prefix}:c${condition}:i${index}`;
        const episode: PlannedEpisode = {
          id,
          task,
          condition,
          index,
          groupId: prefix,
          seed: root.seedFor(id),
        };
        if (group.candidate !== undefined) episode.candidate = group.candidate;
        if (condition === 1 && group.skill) episode.skill = group.skill;
        plan.push(episode);
      }
    }
  }
  return plan;
}
