import {
  type Agent,
  type AgentContext,
  createRng,
  type Environment,
  environmentWon,
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
   * Actions to play in a task's environment: in place of random ones when it has no `admissibleActions` (a
   * QA environment's answer, say), and as one more episode per task when it has them (the task's answer is
   * often the one move random play misses). Default: the task's `answer` as text, else `"noop"`.
   */
  actions?: (task: Task) => readonly string[];
  /**
   * Actions that solve a task (an expert's plan, a demo), when the adapter can give them. The kit plays them
   * through the episode runner and expects the verifier to pass: a verifier that reads the environment's
   * info anywhere but `step.info.env` (where real runs record it) fails here instead of scoring 0 in every
   * run. Where the environment lists admissible actions, each of the plan's must be among them. Without
   * `solve` those two checks are skipped; the verdict is still checked against the environment's own "won"
   * on the kit's random and scripted episodes.
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

/** One episode the kit played, and what it saw on the way. */
interface PlayedEpisode {
  task: Task;
  trajectory: Trajectory;
  /** Breaks of the reset/step contract. */
  problems: string[];
  maxSteps: number;
  /** Whether the environment lists admissible actions. */
  listsActions: boolean;
}

/** Plays one episode of `task` through `@skillrl/rollout`'s runEpisode; returns it and the contract breaks. */
async function playEpisode(
  adapter: TaskAdapter,
  task: Task,
  choose: (context: AgentContext) => string,
  seed: number,
): Promise<PlayedEpisode> {
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
  return {
    task,
    trajectory,
    problems,
    maxSteps: env.maxSteps,
    listsActions: typeof env.admissibleActions === 'function',
  };
}

/**
 * The kit's own episodes of a split: random admissible actions (or the given ones, where the environment
 * lists none), and, where it lists them, the given actions too (`actions(task)`, else the task's answer),
 * which play a task's answer where random play may never reach it.
 */
async function playOwnEpisodes(
  adapter: TaskAdapter,
  tasks: readonly Task[],
  split: string,
  seed: number,
  actionsFor: (task: Task) => readonly string[],
): Promise<PlayedEpisode[]> {
  const rng = createRng(seed).fork(`conformance/${split}`);
  const played: PlayedEpisode[] = [];
  for (const task of tasks) {
    const given = actionsFor(task);
    const scripted = ({ stepIndex }: AgentContext) => given[stepIndex % given.length] ?? 'noop';
    const own = rng.fork(task.id);
    const random = await playEpisode(
      adapter,
      task,
      (context) =>
        context.admissibleActions && context.admissibleActions.length > 0
          ? own.pick(context.admissibleActions)
          : scripted(context),
      rng.seedFor(task.id),
    );
    played.push(random);
    if (random.listsActions) played.push(await playEpisode(adapter, task, scripted, rng.seedFor(task.id)));
  }
  return played;
}

/** An episode played by `solve(task)`, with the plan's actions that were not admissible when played. */
interface SolvedEpisode extends PlayedEpisode {
  plan: string[];
  inadmissible: string[];
}

async function playSolvedEpisodes(
  adapter: TaskAdapter,
  tasks: readonly Task[],
  seed: number,
  solve: NonNullable<AdapterConformanceOptions['solve']>,
): Promise<SolvedEpisode[]> {
  const solved: SolvedEpisode[] = [];
  for (const task of tasks) {
    const plan = [...(await solve(JSON.parse(JSON.stringify(task)) as Task))];
    const inadmissible: string[] = [];
    const played = await playEpisode(
      adapter,
      task,
      ({ stepIndex, admissibleActions }) => {
        const action = plan[stepIndex] ?? 'noop';
        // A policy picks among the listed actions: one outside the list is a move no trained agent makes.
        if (admissibleActions && admissibleActions.length > 0 && !admissibleActions.includes(action)) {
          inadmissible.push(
            `step ${stepIndex}: ${JSON.stringify(action)} is not among ${JSON.stringify(admissibleActions.slice(0, 12))}${admissibleActions.length > 12 ? ` (and ${admissibleActions.length - 12} more)` : ''}`,
          );
        }
        return action;
      },
      createRng(seed).seedFor(task.id),
    );
    solved.push({ ...played, plan, inadmissible });
  }
  return solved;
}

/** The trajectory as the runner hands it to the verifier: before the verdict, so `reward` is still 0. */
function asVerifierSeesIt(trajectory: Trajectory): Trajectory {
  const copy = JSON.parse(JSON.stringify(trajectory)) as Trajectory;
  return { ...copy, reward: 0, verdict: { score: 0, passed: false } };
}

/**
 * What a verifier that judges the trajectory it is given must do, over the episodes played: give each the
 * same verdict again, from a JSON copy and in reverse order with a fresh verifier (one that reads a
 * variable the last environment set, or anything but its argument, gives another), and not pass an
 * episode with its steps and answer taken away. Returns the breaks, in words.
 */
async function verdictsIgnoringTheTrajectory(
  adapter: TaskAdapter,
  played: readonly PlayedEpisode[],
): Promise<string[]> {
  const problems: string[] = [];
  const finished = played.filter((p) => p.trajectory.error === undefined);
  for (const { task, trajectory } of [...finished].reverse()) {
    const copy = JSON.parse(JSON.stringify(task)) as Task;
    const again = await adapter.verifier(copy).verify(copy, asVerifierSeesIt(trajectory));
    const before = { score: trajectory.verdict.score, passed: trajectory.verdict.passed };
    const after = { score: again?.score, passed: again?.passed };
    if (before.score !== after.score || before.passed !== after.passed) {
      problems.push(
        `${task.id}: the same trajectory judged again gives ${JSON.stringify(after)}, first ${JSON.stringify(before)}`,
      );
    }
  }
  const blanked = new Set<string>();
  for (const { task, trajectory } of finished) {
    if (blanked.has(task.id)) continue;
    blanked.add(task.id);
    const { answer: _answer, ...rest } = asVerifierSeesIt(trajectory);
    const copy = JSON.parse(JSON.stringify(task)) as Task;
    let passed = false;
    try {
      passed = (await adapter.verifier(copy).verify(copy, { ...rest, steps: [] }))?.passed === true;
    } catch {
      // A verifier that throws on an empty episode fails it (the runner scores the error 0).
    }
    if (passed) problems.push(`${task.id}: an episode with no steps and no answer passes`);
  }
  return problems;
}

/** Episodes the environment reports won (`environmentWon`) that the verdict scores 0, in words. */
function wonByEnvironmentScoredZero(adapter: TaskAdapter, played: readonly PlayedEpisode[]): string[] {
  return played
    .filter(
      ({ trajectory: t }) =>
        t.error === undefined && environmentWon(t) && !t.verdict.passed && t.verdict.score === 0,
    )
    .map(({ task, trajectory: t }) => {
      const last = t.steps.at(-1);
      return `${task.id}: the environment reported it won (last step reward ${last?.reward}, info.env ${JSON.stringify(last?.info?.env)}) and the verifier "${adapter.verifier(task).name}" scored it ${JSON.stringify(t.verdict)}`;
    });
}

/** What every played episode must satisfy, whoever chose its actions. */
function expectSoundEpisode(played: PlayedEpisode) {
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
 * contract and the verdicts, that no episode the environment reports won (`environmentWon`) scores 0, that
 * the verdict follows from the trajectory it is given (the same again from a copy, no pass without steps),
 * with `solve` expects the adapter's own solutions to pass from admissible actions alone, and round-trips
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

        // Played once, for the tests that read them (each test awaits the same episodes).
        let own: Promise<PlayedEpisode[]> | undefined;
        const ownEpisodes = () => {
          own ??= Promise.resolve(adapter.load({ split, limit, seed })).then((tasks) =>
            playOwnEpisodes(adapter, tasks.slice(0, episodes), split, seed, actionsFor),
          );
          return own;
        };
        let solved: Promise<SolvedEpisode[]> | undefined;
        const solvedEpisodes = () => {
          const solve = options.solve as NonNullable<AdapterConformanceOptions['solve']>;
          solved ??= Promise.resolve(adapter.load({ split, limit, seed })).then((tasks) =>
            playSolvedEpisodes(adapter, tasks.slice(0, episodes), seed, solve),
          );
          return solved;
        };

        it('plays episodes through reset/step within maxSteps, and the verifier judges them in [0, 1]', async () => {
          // Random admissible actions (and the given ones), through the runner real runs use.
          for (const played of await ownEpisodes()) expectSoundEpisode(played);
        });

        it('scores no episode 0 that the environment reports won (info.env.won or success, or reward 1)', async () => {
          const zeroed = wonByEnvironmentScoredZero(adapter, await ownEpisodes());
          expect(
            zeroed,
            "the verifier scores 0 what the environment reports won: real runs record the environment's info at " +
              'trajectory.steps.at(-1)?.info?.env (not info), and trajectory.reward is 0 until the verdict sets it',
          ).toEqual([]);
        });

        it('judges the trajectory it is given: the same verdict again from a copy, no pass without steps', async () => {
          const played = [...(await ownEpisodes()), ...(options.solve ? await solvedEpisodes() : [])];
          const problems = await verdictsIgnoringTheTrajectory(adapter, played);
          expect(
            problems,
            'the verdict must follow from (task, trajectory) alone, as runs recompute it from rollouts.jsonl\n' +
              problems.slice(0, 5).join('\n'),
          ).toEqual([]);
        });

        it.skipIf(!options.solve)(
          'passes the episodes its own solution plays, recorded as real runs record them (step.info.env)',
          async () => {
            for (const played of await solvedEpisodes()) {
              expectSoundEpisode(played);
              const { task, plan } = played;
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

        it.skipIf(!options.solve)(
          'plays its solution from admissibleActions() alone, where the environment lists them',
          async () => {
            const outside = (await solvedEpisodes()).flatMap(({ task, inadmissible }) =>
              inadmissible.map((why) => `${task.id}, ${why}`),
            );
            expect(
              outside,
              'solve(task) plays actions the environment does not list: an agent choosing among admissibleActions() never can\n' +
                outside.slice(0, 5).join('\n'),
            ).toEqual([]);
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
