import {
  type AdvantageBatch,
  createRng,
  type Skill,
  type SkillCandidate,
  type Task,
  type Trajectory,
} from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSkillR1State,
  runSkillR1Generation,
  type SkillR1GenerationInput,
  type SkillR1GenerationResult,
  type SkillR1Ports,
  type SkillR1State,
} from './skill-r1-generation.js';

// The errored-rollout policy in Skill-R1's generation step: a rollout that ended in an error (a model call
// that failed past its retries, an environment or verifier that threw) measured nothing about the skill, so
// it is left out of every score and counted; a candidate with nothing else has no score.

const task = (id: string): Task => ({ id, family: 'f', split: 'train', prompt: id });
const skill = (name: string): Skill => ({ name, description: 'Do it.', body: `1. ${name}\n` });
const nameOf = (taskId: string, k: number) => `cand-${taskId}-${k}`;

let serial = 0;
function run(
  taskId: string,
  generation: number,
  candidate: number | undefined,
  reward: number,
  error?: { code: string; message: string },
  steps = 1,
): Trajectory {
  serial++;
  return {
    id: `${taskId}:${candidate ?? 's0'}:${serial}${error ? ':err' : ''}`,
    taskId,
    family: 'f',
    condition: 1,
    ...(candidate !== undefined ? { candidate } : {}),
    generation,
    steps: Array.from({ length: Math.max(1, steps) }, (_, i) => ({
      index: i,
      observation: `o${i}`,
      action: 'x',
      reward: 0,
      done: i === steps - 1,
    })),
    reward,
    verdict: { score: reward, passed: reward >= 1 },
    ...(error ? { error } : {}),
  };
}

/** An estimator that refuses a non-finite score: an unscored candidate must never reach the batch. */
function strictEstimate(batches: AdvantageBatch[]) {
  return (batch: AdvantageBatch) => {
    batches.push(batch);
    const scores = Array.from(batch.scores);
    for (const s of scores)
      if (!Number.isFinite(s)) throw new Error(`a non-finite score reached the batch: ${s}`);
    const advantages = scores.map((s, i) => {
      const group = batch.groupIds[i] as string;
      const mine = scores.filter((_, j) => batch.groupIds[j] === group);
      const m = mine.reduce((a, b) => a + b, 0) / mine.length;
      const prev = batch.previousMeans?.[group];
      return s - m + (batch.interGenerationWeights?.[i] ?? 0) * (prev === undefined ? 0 : m - prev);
    });
    return { advantages: Float64Array.from(advantages), metrics: { batch: scores.length } };
  };
}

/** Ports whose episodes are exactly `runs` and whose editor proposes `k` fixed candidates per task. */
function fixedPorts(runs: Trajectory[], k: number) {
  const batches: AdvantageBatch[] = [];
  const updates: { names: string[]; advantages: number[] }[] = [];
  const ports: SkillR1Ports = {
    async propose(context, n) {
      return Array.from({ length: Math.min(k, n) }, (_, i) => ({
        skill: skill(nameOf(context.task.id, i)),
        text: '',
      }));
    },
    runEpisodes: async () => runs,
    estimate: strictEstimate(batches),
    async update(candidates: readonly SkillCandidate[], advantages) {
      updates.push({ names: candidates.map((c) => c.skill.name), advantages: Array.from(advantages) });
      return {};
    },
  };
  return { ports, batches, updates };
}

const input = (
  tasks: Task[],
  state: SkillR1State,
  over: Partial<SkillR1GenerationInput> = {},
): SkillR1GenerationInput => ({
  generation: 1,
  tasks,
  state,
  candidates: 3,
  episodes: 2,
  lambda: 1,
  interGeneration: true,
  carry: 'best',
  train: true,
  initialSkill: () => skill('s-zero'),
  rng: createRng(3),
  unit: 'g1',
  ...over,
});

const ERR = { code: 'model', message: 'HTTP 503 after 3 retries' };

describe('errored rollouts in a Skill-R1 generation', () => {
  it('a candidate whose rollouts all errored has no score: not in the batch, not carried, not learned from, counted', async () => {
    const tasks = [task('a')];
    const start = createSkillR1State(tasks);
    start.tasks.a = { history: [], current: skill('s-zero'), previousMean: 0.25, carriedMean: 0.25 };
    // Candidate 0: both rollouts errored (reward 0, the placeholder). Candidates 1 and 2 scored 0: with the
    // errored rollouts scored as failures, candidate 0 would tie them and be carried as the earliest.
    const runs = [
      run('a', 1, 0, 0, ERR),
      run('a', 1, 0, 0, ERR),
      run('a', 1, 1, 0),
      run('a', 1, 1, 0),
      run('a', 1, 2, 0),
      run('a', 1, 2, 0, ERR),
    ];
    const p = fixedPorts(runs, 3);
    const r = await runSkillR1Generation(input(tasks, start), p.ports);
    expect(p.batches[0]?.groupIds).toEqual(['a', 'a']);
    expect(Array.from(p.batches[0]?.scores ?? [])).toEqual([0, 0]);
    expect(r.advantages?.map((a) => [a.candidate, a.reward, a.errored])).toEqual([
      [1, 0, undefined],
      [2, 0, 1],
    ]);
    expect(p.updates[0]?.names).toEqual([nameOf('a', 1), nameOf('a', 2)]);
    expect(r.tasks[0]).toMatchObject({
      skill: skill(nameOf('a', 1)),
      candidates: 2,
      rolloutsErrored: 3,
      unscoredCandidates: 1,
    });
    expect(r.rolloutsErrored).toBe(3);
    expect(r.unscoredCandidates).toBe(1);
    // The history's record lists the scored candidates and no errored episode among its failures.
    const record = r.state.tasks.a?.history.at(-1);
    expect(record?.candidates?.map((c) => c.skill.name)).toEqual([nameOf('a', 1), nameOf('a', 2)]);
    expect(record?.failures).toHaveLength(3);
  });

  it('a task with every rollout errored is unscored: its skill, baselines and history stay, no made-up 0', async () => {
    const tasks = [task('a'), task('b')];
    const start = createSkillR1State(tasks);
    for (const id of ['a', 'b']) {
      start.tasks[id] = { history: [], current: skill('s-zero'), previousMean: 0.5, carriedMean: 0.75 };
    }
    start.generationMeans = [0.5];
    const runs = [
      ...[0, 1].flatMap((k) => [run('a', 1, k, 0, ERR), run('a', 1, k, 0, ERR)]),
      ...[0, 1].flatMap((k) => [run('b', 1, k, k), run('b', 1, k, k)]),
    ];
    const p = fixedPorts(runs, 2);
    const r = await runSkillR1Generation(input(tasks, start, { candidates: 2 }), p.ports);
    expect(r.tasks.map((t) => t.taskId)).toEqual(['b']);
    expect(r.unscored).toEqual([
      {
        taskId: 'a',
        rolloutsErrored: 4,
        candidates: 2,
        proposals: { calls: 1, failedCalls: 0, rejected: 0, reused: false },
      },
    ]);
    expect(r.state.tasks.a).toEqual(start.tasks.a);
    // The generation's mean is b's alone (candidates 0 and 1: 0.5), not dragged to 0.25 by a's errors.
    expect(r.mean).toBe(0.5);
    expect(r.state.generationMeans).toEqual([0.5, 0.5]);
    expect(r.advantages?.map((a) => a.taskId)).toEqual(['b', 'b']);

    // Nothing scored at all: no mean and a hole in generationMeans.
    const none = fixedPorts(runs.slice(0, 4), 2);
    const nothing = await runSkillR1Generation(input([task('a')], start, { candidates: 2 }), none.ports);
    expect(nothing.mean).toBeUndefined();
    expect(nothing.state.generationMeans).toEqual([0.5]);
    expect(none.batches).toEqual([]);

    // Generation 0 whose s0 rollouts all errored: s0 is carried, but with no baseline for A_inter(1).
    const g0 = fixedPorts([run('a', 0, undefined, 0, ERR), run('b', 0, undefined, 1)], 2);
    const first = await runSkillR1Generation(
      input(tasks, createSkillR1State(tasks), { generation: 0, unit: 'g0' }),
      g0.ports,
    );
    expect(first.state.tasks.a).toEqual({ history: [], current: skill('s-zero') });
    expect(first.unscored).toEqual([{ taskId: 'a', rolloutsErrored: 1 }]);
    expect(first.mean).toBe(1);
  });

  it('property: injecting errored rollouts anywhere changes nothing but the counts (generation 0 and g >= 1)', async () => {
    const reward = fc.constantFrom(0, 0.25, 0.5, 1);
    const scenario = fc
      .record({
        tasks: fc.integer({ min: 1, max: 3 }),
        k: fc.integer({ min: 1, max: 3 }),
        carry: fc.constantFrom('best' as const, 'sample' as const),
        interGeneration: fc.boolean(),
        lambda: fc.constantFrom(0, 0.5, 1),
        seed: fc.integer({ min: 0, max: 1000 }),
      })
      .chain((shape) =>
        fc.record({
          shape: fc.constant(shape),
          // Per task, s0's rewards (0 to 3 episodes), then per candidate its rewards (0 to 3: none = unscored).
          s0: fc.array(fc.array(reward, { maxLength: 3 }), {
            minLength: shape.tasks,
            maxLength: shape.tasks,
          }),
          clean: fc.array(
            fc.array(fc.array(reward, { maxLength: 3 }), { minLength: shape.k, maxLength: shape.k }),
            { minLength: shape.tasks, maxLength: shape.tasks },
          ),
          injected: fc.array(
            fc.record({
              task: fc.nat(shape.tasks - 1),
              candidate: fc.nat(shape.k - 1),
              generation: fc.constantFrom(0, 1),
              // An errored rollout's reward is a placeholder: anything, a success's 1 included.
              reward: fc.double({ min: -2, max: 2, noNaN: true }),
              code: fc.constantFrom('model', 'environment', 'verifier'),
              steps: fc.integer({ min: 1, max: 4 }),
              at: fc.nat(),
            }),
            { maxLength: 10 },
          ),
        }),
      );
    await fc.assert(
      fc.asyncProperty(scenario, async ({ shape, s0, clean, injected }) => {
        const tasks = Array.from({ length: shape.tasks }, (_, i) => task(`t${i}`));
        const id = (i: number) => `t${i}`;
        const cleanG0 = s0.flatMap((rewards, i) => rewards.map((x) => run(id(i), 0, undefined, x)));
        const cleanG1 = clean.flatMap((byCandidate, i) =>
          byCandidate.flatMap((rewards, k) => rewards.map((x) => run(id(i), 1, k, x))),
        );
        const inject = (runs: Trajectory[], generation: number) => {
          const out = [...runs];
          for (const e of injected.filter((x) => x.generation === generation)) {
            const bad = run(
              id(e.task),
              generation,
              generation === 0 ? undefined : e.candidate,
              e.reward,
              { code: e.code, message: 'failed' },
              e.steps,
            );
            out.splice(e.at % (out.length + 1), 0, bad);
          }
          return out;
        };
        const common = {
          candidates: shape.k,
          carry: shape.carry,
          interGeneration: shape.interGeneration,
          lambda: shape.lambda,
          rng: createRng(shape.seed),
        };
        const both = async (generation: number, state: SkillR1State, cleanRuns: Trajectory[]) => {
          const unit = `g${generation}`;
          const a = fixedPorts(cleanRuns, shape.k);
          const b = fixedPorts(inject(cleanRuns, generation), shape.k);
          const over = { ...common, generation, unit };
          const ra = await runSkillR1Generation(input(tasks, state, over), a.ports);
          const rb = await runSkillR1Generation(input(tasks, state, over), b.ports);
          // Scores, advantages, carried choices, means, baselines and history: identical.
          expect(withoutCounts(rb)).toEqual(withoutCounts(ra));
          expect(b.batches).toEqual(a.batches);
          expect(b.updates).toEqual(a.updates);
          // The counts: every injected rollout, once, where it was left out.
          const expected = injected.filter((x) => x.generation === generation);
          expect(rb.rolloutsErrored).toBe(expected.length);
          expect(ra.rolloutsErrored).toBe(0);
          const perTask = [...rb.tasks, ...(rb.unscored ?? [])].reduce((n, t) => n + t.rolloutsErrored, 0);
          expect(perTask).toBe(expected.length);
          for (const row of rb.advantages ?? []) {
            const n = expected.filter(
              (x) => id(x.task) === row.taskId && x.candidate === row.candidate,
            ).length;
            expect(row.errored ?? 0).toBe(n);
          }
          return ra;
        };
        const g0 = await both(0, createSkillR1State(tasks), cleanG0);
        await both(1, g0.state, cleanG1);
      }),
      { numRuns: 150 },
    );
  });
});

/** A result less what counts errored rollouts, which is all that injecting them may change. */
function withoutCounts(r: SkillR1GenerationResult): unknown {
  const {
    rolloutsErrored: _e,
    unscoredCandidates: _u,
    unscored,
    ...rest
  } = structuredClone(r) as SkillR1GenerationResult;
  return {
    ...rest,
    tasks: rest.tasks.map(({ rolloutsErrored: _r, ...t }) => t),
    advantages: rest.advantages?.map(({ errored: _x, ...row }) => row),
    // A task listed as unscored by its errored rollouts alone ran nothing scored in the clean generation.
    unscored: (unscored ?? []).filter((t) => t.candidates !== undefined).map((t) => t.taskId),
  };
}
