import {
  type Agent,
  type AgentContext,
  createRng,
  type Environment,
  formatSkill,
  parseSkill,
  type StepResult,
  type Task,
  type TaskAdapter,
  type Trajectory,
  validate,
  validateSkill,
} from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { loadEpisodeRunner } from './load-episode-runner.js';

export interface AdapterConformanceOptions {
  /** Splits to load; default `adapter.splits`, else `train`, `valid_seen`, `valid_unseen`. */
  splits?: readonly string[];
  /** Tasks loaded per split (default 6). */
  limit?: number;
  /** Seed for loading and for random actions (default 1). */
  seed?: number;
  /** A second seed that must give different tasks (default 2). */
  otherSeed?: number;
  /**
   * Whether another seed must give other tasks (default true). File-backed adapters that return the same
   * tasks whatever the seed set this to false; the same seed must still give the same tasks.
   */
  seedChangesTasks?: boolean;
  /** Episodes run per split (default 3). */
  episodes?: number;
  /**
   * Actions to play in a task's environment when it has no `admissibleActions` (a QA environment's
   * answer, say). Default: the task's `answer` as text, else `"noop"`.
   */
  actions?: (task: Task) => readonly string[];
  /**
   * Actions that solve a task (an expert's plan, a demo), when the adapter can give them. The kit plays them
   * through the episode runner and expects the verifier to pass: a verifier that reads the environment's
   * info anywhere but `step.info.env` (where real runs record it) fails here instead of scoring 0 in every
   * run. Without it that check is skipped.
   */
  solve?: (task: Task) => readonly string[] | Promise<readonly string[]>;
}

const DEFAULT_SPLITS = ['train', 'valid_seen', 'valid_unseen'] as const;

function defaultActions(task: Task): string[] {
  if (task.answer === undefined) return ['noop'];
  return [typeof task.answer === 'string' ? task.answer : JSON.stringify(task.answer)];
}

/** A task model that plays given actions: what the kit drives the real episode runner with. */
function scriptedAgent(choose: (context: AgentContext) => string): Agent {
  return { act: async (context) => ({ action: choose(context) }) };
}

/**
 * The environment as the runner sees it, recording every break of the reset/step contract (the runner
 * would turn a throw into an ended episode; the kit names each break instead).
 */
function checkedEnvironment(env: Environment, problems: string[]): Environment {
  const checkResult = (result: StepResult, action: string) => {
    const at = `step(${JSON.stringify(action)})`;
    if (typeof result?.observation !== 'string') problems.push(`${at}: observation is not a string`);
    if (!Number.isFinite(result?.reward))
      problems.push(`${at}: reward ${String(result?.reward)} is not finite`);
    if (typeof result?.done !== 'boolean') problems.push(`${at}: done is not a boolean`);
    if (result?.info !== undefined) {
      if (result.info === null || typeof result.info !== 'object' || Array.isArray(result.info)) {
        problems.push(`${at}: info is not an object`);
      } else if (!isPlainJson(result.info)) {
        // It is stored in rollouts.jsonl (at step.info.env): it must come back from JSON as it was.
        problems.push(
          `${at}: info is not plain JSON (strings, finite numbers, booleans, null, arrays, objects)`,
        );
      }
    }
    return result;
  };
  const checked: Environment = {
    maxSteps: env.maxSteps,
    async reset() {
      const observation = await env.reset();
      if (typeof observation !== 'string') problems.push('reset() did not return a string');
      return observation;
    },
    async step(action) {
      return checkResult(await env.step(action), action);
    },
    close: () => env.close?.(),
  };
  if (env.admissibleActions) {
    checked.admissibleActions = () => {
      const admissible = env.admissibleActions?.() ?? [];
      if (!Array.isArray(admissible) || admissible.some((a) => typeof a !== 'string')) {
        problems.push('admissibleActions() did not return a list of strings');
        return [];
      }
      return admissible;
    };
  }
  return checked;
}

/** Whether `value` survives `JSON.parse(JSON.stringify(value))` unchanged (undefined fields aside). */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((v) => v === undefined || isPlainJson(v));
}

/** Plays one episode of `task` through `@skillrl/rollout`'s runEpisode; returns it and the contract breaks. */
async function playEpisode(
  adapter: TaskAdapter,
  task: Task,
  choose: (context: AgentContext) => string,
  seed: number,
): Promise<{ trajectory: Trajectory; problems: string[]; maxSteps: number }> {
  const runEpisode = await loadEpisodeRunner();
  // Tasks travel through rollouts.jsonl: the environment must come back from the JSON copy.
  const copy = JSON.parse(JSON.stringify(task)) as Task;
  expect(copy).toEqual(task);
  const env = await adapter.createEnvironment(copy);
  expect(Number.isInteger(env.maxSteps), 'env.maxSteps is an integer').toBe(true);
  expect(env.maxSteps).toBeGreaterThan(0);
  const problems: string[] = [];
  const verifier = adapter.verifier(task);
  expect(typeof verifier.name).toBe('string');
  expect(verifier.name.length).toBeGreaterThan(0);
  const trajectory = await runEpisode({
    agent: scriptedAgent(choose),
    env: checkedEnvironment(env, problems),
    task: copy,
    verifier,
    id: `conformance/${task.id}`,
    seed,
    ...(adapter.tools ? { tools: adapter.tools } : {}),
  });
  return { trajectory, problems, maxSteps: env.maxSteps };
}

/** What every played episode must satisfy, whoever chose its actions. */
function expectSoundEpisode(played: { trajectory: Trajectory; problems: string[]; maxSteps: number }) {
  const { trajectory, problems, maxSteps } = played;
  expect(problems, 'the environment keeps the reset/step contract').toEqual([]);
  expect(trajectory.error, `the episode ran to its end: ${trajectory.error?.message}`).toBeUndefined();
  // The episode loop stops at maxSteps whether or not the environment says done.
  expect(trajectory.steps.length).toBeLessThanOrEqual(maxSteps);
  const verdict = trajectory.verdict;
  validate('verdict', verdict);
  expect(Number.isFinite(verdict.score)).toBe(true);
  expect(verdict.score).toBeGreaterThanOrEqual(0);
  expect(verdict.score).toBeLessThanOrEqual(1);
  expect(typeof verdict.passed).toBe('boolean');
}

/**
 * Declares vitest tests every task adapter must pass: it loads each split, checks every task against the
 * `task` schema, loads twice per seed (same seed, same tasks; another seed, other tasks), plays episodes
 * (from a JSON copy of each task, as tasks travel through run files) with random admissible actions (or
 * given ones) through `@skillrl/rollout`'s `runEpisode` — the runner real runs use, so the verifier judges
 * the trajectory real runs record (the environment's info at `step.info.env`) — checks the reset/step
 * contract and the verdicts, with `solve` expects the adapter's own solutions to pass, and round-trips
 * `skills()` through SKILL.md.
 *
 * ```ts
 * import adapter from '../src/index.js';
 * import { describeAdapterConformance } from '@skillrl/testkit';
 * describeAdapterConformance(adapter);
 * ```
 */
export function describeAdapterConformance(
  adapter: TaskAdapter,
  options: AdapterConformanceOptions = {},
): void {
  const splits = options.splits ?? adapter.splits ?? DEFAULT_SPLITS;
  const limit = options.limit ?? 6;
  const seed = options.seed ?? 1;
  const otherSeed = options.otherSeed ?? 2;
  const episodes = options.episodes ?? 3;
  const actionsFor = options.actions ?? defaultActions;

  describe(`task adapter conformance: ${adapter?.name ?? '(unnamed)'}`, () => {
    it('has a name and distinct, non-empty families', () => {
      expect(typeof adapter.name).toBe('string');
      expect(adapter.name.length).toBeGreaterThan(0);
      expect(Array.isArray(adapter.families)).toBe(true);
      expect(adapter.families.length).toBeGreaterThan(0);
      for (const f of adapter.families) expect(typeof f === 'string' && f.length > 0).toBe(true);
      expect(new Set(adapter.families).size).toBe(adapter.families.length);
      expect(typeof adapter.load).toBe('function');
      expect(typeof adapter.createEnvironment).toBe('function');
      expect(typeof adapter.verifier).toBe('function');
    });

    for (const split of splits) {
      describe(`split ${split}`, () => {
        it('loads valid tasks with unique ids, this split and a declared family', async () => {
          const tasks = await adapter.load({ split, limit, seed });
          expect(Array.isArray(tasks)).toBe(true);
          expect(tasks.length).toBeGreaterThan(0);
          expect(tasks.length).toBeLessThanOrEqual(limit);
          for (const task of tasks) {
            validate('task', task);
            expect(task.split).toBe(split);
            expect(adapter.families).toContain(task.family);
          }
          expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
        });

        it('is deterministic by seed', async () => {
          const a = await adapter.load({ split, limit, seed });
          const b = await adapter.load({ split, limit, seed });
          expect(b).toEqual(a);
          if (options.seedChangesTasks ?? true) {
            const c = await adapter.load({ split, limit, seed: otherSeed });
            expect(c).not.toEqual(a);
          }
        });

        it('plays episodes through reset/step within maxSteps, and the verifier judges them in [0, 1]', async () => {
          const tasks = (await adapter.load({ split, limit, seed })).slice(0, episodes);
          const rng = createRng(seed).fork(`conformance/${split}`);
          for (const task of tasks) {
            const given = actionsFor(task);
            const own = rng.fork(task.id);
            // Random admissible actions (or the given ones), through the runner real runs use.
            const played = await playEpisode(
              adapter,
              task,
              ({ admissibleActions, stepIndex }) =>
                admissibleActions && admissibleActions.length > 0
                  ? own.pick(admissibleActions)
                  : (given[stepIndex % given.length] ?? 'noop'),
              rng.seedFor(task.id),
            );
            expectSoundEpisode(played);
          }
        });

        it.skipIf(!options.solve)(
          'passes the episodes its own solution plays, recorded as real runs record them (step.info.env)',
          async () => {
            const solve = options.solve as NonNullable<AdapterConformanceOptions['solve']>;
            const tasks = (await adapter.load({ split, limit, seed })).slice(0, episodes);
            for (const task of tasks) {
              const plan = [...(await solve(JSON.parse(JSON.stringify(task)) as Task))];
              const played = await playEpisode(
                adapter,
                task,
                ({ stepIndex }) => plan[stepIndex] ?? 'noop',
                createRng(seed).seedFor(task.id),
              );
              expectSoundEpisode(played);
              const { verdict, steps } = played.trajectory;
              expect(
                verdict.passed,
                `the verifier failed ${task.id} played by solve(task) (${plan.length} actions, verdict ${JSON.stringify(verdict)}); ` +
                  `real runs record the environment's info at step.info.env: read trajectory.steps.at(-1)?.info?.env, ` +
                  `last step's info here: ${JSON.stringify(steps.at(-1)?.info)}`,
              ).toBe(true);
            }
          },
        );
      });
    }

    it('ships skills that are valid SKILL.md and round-trip through formatSkill/parseSkill', async () => {
      if (!adapter.skills) return;
      const skills = await adapter.skills();
      expect(Array.isArray(skills)).toBe(true);
      for (const skill of skills) {
        const check = validateSkill(skill);
        expect(check.problems).toEqual([]);
        const text = formatSkill(skill);
        const back = parseSkill(text);
        expect(back).toEqual(skill);
        expect(formatSkill(back)).toBe(text);
        for (const f of skill.families ?? []) expect(adapter.families).toContain(f);
      }
      expect(new Set(skills.map((s) => s.name)).size).toBe(skills.length);
    });

    it('gives a step vocabulary of non-empty phrases for its own families, when it has one', () => {
      if (!adapter.stepVocabulary) return;
      const vocabulary = adapter.stepVocabulary();
      for (const [family, phrases] of Object.entries(vocabulary)) {
        expect(adapter.families).toContain(family);
        expect(phrases.length).toBeGreaterThan(0);
        for (const p of phrases) expect(typeof p === 'string' && p.trim().length > 0).toBe(true);
      }
    });
  });
}
