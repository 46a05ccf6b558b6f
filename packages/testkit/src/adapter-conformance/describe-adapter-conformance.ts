import {
  createRng,
  formatSkill,
  parseSkill,
  type Task,
  type TaskAdapter,
  type Trajectory,
  type TrajectoryStep,
  validate,
  validateSkill,
} from '@skillrl/core';
import { describe, expect, it } from 'vitest';

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
}

interface PlayedEpisode {
  task: Task;
  trajectory: Trajectory;
}

const DEFAULT_SPLITS = ['train', 'valid_seen', 'valid_unseen'] as const;

function defaultActions(task: Task): string[] {
  if (task.answer === undefined) return ['noop'];
  return [typeof task.answer === 'string' ? task.answer : JSON.stringify(task.answer)];
}

/**
 * Declares vitest tests every task adapter must pass: it loads each split, checks every task against the
 * `task` schema, loads twice per seed (same seed, same tasks; another seed, other tasks), plays episodes
 * (from a JSON copy of each task, as tasks travel through run files) through the environment's reset/step contract with random admissible actions (or given ones) up to
 * `maxSteps`, checks the verifier's verdicts, and round-trips `skills()` through SKILL.md.
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
          const played: PlayedEpisode[] = [];
          for (const task of tasks) {
            // Tasks travel through rollouts.jsonl: the environment must come back from the JSON copy.
            const copy = JSON.parse(JSON.stringify(task)) as Task;
            expect(copy).toEqual(task);
            const env = await adapter.createEnvironment(copy);
            expect(Number.isInteger(env.maxSteps)).toBe(true);
            expect(env.maxSteps).toBeGreaterThan(0);
            let observation = await env.reset();
            expect(typeof observation).toBe('string');
            const given = actionsFor(task);
            const steps: TrajectoryStep[] = [];
            for (let i = 0; i < env.maxSteps; i++) {
              let action: string;
              if (env.admissibleActions) {
                const admissible = env.admissibleActions();
                expect(Array.isArray(admissible)).toBe(true);
                for (const a of admissible) expect(typeof a).toBe('string');
                action = admissible.length > 0 ? rng.pick(admissible) : (given[i % given.length] ?? 'noop');
              } else {
                action = given[i % given.length] ?? 'noop';
              }
              const result = await env.step(action);
              expect(typeof result.observation).toBe('string');
              expect(Number.isFinite(result.reward)).toBe(true);
              expect(typeof result.done).toBe('boolean');
              steps.push({
                index: i,
                observation,
                action,
                reward: result.reward,
                done: result.done,
                ...(result.info ? { info: result.info } : {}),
              });
              observation = result.observation;
              if (result.done) break;
            }
            // The episode loop stops at maxSteps whether or not the environment says done.
            expect(steps.length).toBeLessThanOrEqual(env.maxSteps);
            await env.close?.();
            const trajectory: Trajectory = {
              id: `conformance-${task.id}`,
              taskId: task.id,
              family: task.family,
              condition: 0,
              steps,
              reward: steps.reduce((s, x) => s + x.reward, 0),
              verdict: { score: 0, passed: false },
            };
            played.push({ task, trajectory });
          }
          for (const { task, trajectory } of played) {
            const verifier = adapter.verifier(task);
            expect(typeof verifier.name).toBe('string');
            expect(verifier.name.length).toBeGreaterThan(0);
            const verdict = await verifier.verify(task, trajectory);
            validate('verdict', verdict);
            expect(Number.isFinite(verdict.score)).toBe(true);
            expect(verdict.score).toBeGreaterThanOrEqual(0);
            expect(verdict.score).toBeLessThanOrEqual(1);
            expect(typeof verdict.passed).toBe('boolean');
          }
        });
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
