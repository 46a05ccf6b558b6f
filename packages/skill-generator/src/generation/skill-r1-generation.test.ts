import {
  type AdvantageBatch,
  createRng,
  formatSkill,
  type Skill,
  type SkillCandidate,
  type Task,
  type Trajectory,
} from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  createSkillR1State,
  runSkillR1Generation,
  type SkillR1EpisodeRequest,
  type SkillR1GenerationInput,
  type SkillR1Ports,
} from './skill-r1-generation.js';

const task = (id: string): Task => ({ id, family: 'f', split: 'train', prompt: id });
const skill = (name: string): Skill => ({ name, description: 'Do it.', body: `1. ${name}\n` });
const tasks = [task('a'), task('b')];

/** Rewards by skill name: `good-*` 1, `ok-*` 0.5, anything else 0; every episode of a group the same. */
const rewardOf = (s?: Skill) => (s?.name.startsWith('good') ? 1 : s?.name.startsWith('ok') ? 0.5 : 0);

/** Runs the request the way rollout's planner lays it out: a group of `groupSize` per task and skill. */
function fakeRunner(log: SkillR1EpisodeRequest[]) {
  return async (request: SkillR1EpisodeRequest): Promise<Trajectory[]> => {
    log.push(request);
    const out: Trajectory[] = [];
    for (const t of request.tasks) {
      const found = request.skills(t);
      const list = found === undefined ? [undefined] : Array.isArray(found) ? found : [found];
      list.forEach((s, k) => {
        for (let i = 0; i < request.groupSize; i++) {
          const reward = rewardOf(s);
          out.push({
            id: `${t.id}:k${k}:i${i}`,
            taskId: t.id,
            family: t.family,
            condition: s ? 1 : 0,
            ...(Array.isArray(found) ? { candidate: k } : {}),
            generation: request.generation,
            steps: [{ index: 0, observation: 'o', action: 'x', reward, done: true }],
            reward,
            verdict: { score: reward, passed: reward === 1 },
          });
        }
      });
    }
    return out;
  };
}

/** A transparent estimator: score − group mean + λ·(group mean − previous mean). */
function fakeEstimate(batches: AdvantageBatch[]) {
  return (batch: AdvantageBatch) => {
    batches.push(batch);
    const scores = Array.from(batch.scores);
    const advantages = scores.map((s, i) => {
      const group = batch.groupIds[i] as string;
      const mine = scores.filter((_, j) => batch.groupIds[j] === group);
      const m = mine.reduce((a, b) => a + b, 0) / mine.length;
      const prev = batch.previousMeans?.[group];
      return s - m + (batch.lambdas?.[i] ?? 0) * (prev === undefined ? 0 : m - prev);
    });
    return { advantages: Float64Array.from(advantages), metrics: { batch: scores.length } };
  };
}

const base = (over: Partial<SkillR1GenerationInput> = {}): SkillR1GenerationInput => ({
  generation: 0,
  tasks,
  state: createSkillR1State(tasks),
  candidates: 3,
  episodes: 2,
  lambda: 1,
  interGeneration: true,
  carry: 'best',
  train: true,
  initialSkill: () => skill('ok-start'),
  rng: createRng(7),
  unit: 'g0',
  ...over,
});

function ports(over: Partial<SkillR1Ports> = {}) {
  const requests: SkillR1EpisodeRequest[] = [];
  const batches: AdvantageBatch[] = [];
  const updates: { candidates: readonly SkillCandidate[]; advantages: number[] }[] = [];
  const stored = new Map<string, SkillCandidate[]>();
  const proposeCalls: { taskId: string; seed?: number; current?: string; history: number }[] = [];
  const value: SkillR1Ports = {
    async propose(context, n) {
      proposeCalls.push({
        taskId: context.task.id,
        ...(context.seed !== undefined ? { seed: context.seed } : {}),
        ...(context.currentSkill ? { current: context.currentSkill.name } : {}),
        history: context.history.length,
      });
      // Candidate 1 is the best for task a; task b ties its first two.
      const names = context.task.id === 'a' ? ['bad-1', 'good-1', 'ok-1'] : ['ok-2', 'ok-3', 'bad-2'];
      return names.slice(0, n).map((name) => ({ skill: skill(name), text: name }));
    },
    runEpisodes: fakeRunner(requests),
    estimate: fakeEstimate(batches),
    async update(candidates, advantages) {
      updates.push({ candidates, advantages: Array.from(advantages) });
      return { loss: 0.5 };
    },
    storedCandidates: (taskId) => stored.get(taskId),
    onCandidates: (taskId, candidates) => {
      // Before any rollout of the generation.
      expect(requests.filter((r) => r.generation > 0)).toHaveLength(0);
      stored.set(taskId, candidates);
    },
    ...over,
  };
  return { value, requests, batches, updates, stored, proposeCalls };
}

describe('runSkillR1Generation', () => {
  it('generation 0 measures s0: history, previous mean, the mean of the generation', async () => {
    const p = ports();
    const input = base();
    const r = await runSkillR1Generation(input, p.value);
    expect(p.requests).toHaveLength(1);
    expect(p.requests[0]).toMatchObject({ groupSize: 2, generation: 0, seed: createRng(7).seedFor('g0') });
    expect(r.mean).toBe(0.5);
    expect(r.state.generationMeans).toEqual([0.5]);
    expect(r.tasks).toEqual([
      { taskId: 'a', skill: skill('ok-start'), meanReward: 0.5, bestReward: 0.5 },
      { taskId: 'b', skill: skill('ok-start'), meanReward: 0.5, bestReward: 0.5 },
    ]);
    expect(r.state.tasks.a).toMatchObject({ current: skill('ok-start'), previousMean: 0.5 });
    expect(r.state.tasks.a?.history[0]).toMatchObject({ generation: 0, reward: 0.5 });
    // The input state is left as it was.
    expect(input.state).toEqual(createSkillR1State(tasks));
  });

  it('without s0 nothing runs and there is no mean; skillFreeStart runs the tasks without a skill', async () => {
    const none = await runSkillR1Generation(base({ initialSkill: () => undefined }), ports().value);
    expect(none.tasks).toEqual([]);
    expect(none.mean).toBeUndefined();
    expect(none.state.generationMeans).toEqual([]);
    const p = ports();
    const free = await runSkillR1Generation(base({ initialSkill: undefined, skillFreeStart: true }), p.value);
    expect(free.tasks.map((t) => [t.taskId, t.skill, t.meanReward])).toEqual([
      ['a', undefined, 0],
      ['b', undefined, 0],
    ]);
    expect(free.state.tasks.a).toEqual({ history: [], previousMean: 0 });
  });

  it('generation g: proposes, scores in one two-level batch, updates the editor, carries the best', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const p = ports();
    const r = await runSkillR1Generation(base({ generation: 1, unit: 'g1', state: start.state }), p.value);
    expect(p.proposeCalls).toEqual([
      { taskId: 'a', seed: createRng(7).fork('g1').seedFor('a'), current: 'ok-start', history: 1 },
      { taskId: 'b', seed: createRng(7).fork('g1').seedFor('b'), current: 'ok-start', history: 1 },
    ]);
    expect([...p.stored.keys()]).toEqual(['a', 'b']);
    const [batch] = p.batches;
    expect(batch?.groupIds).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    expect(Array.from(batch?.scores ?? [])).toEqual([0, 1, 0.5, 0.5, 0.5, 0]);
    expect(batch?.lambdas).toEqual([1, 1, 1, 1, 1, 1]);
    expect(batch?.generations).toEqual([1, 1, 1, 1, 1, 1]);
    expect(batch?.previousMeans).toEqual({ a: 0.5, b: 0.5 });
    // The editor learned from every candidate with its advantage, in batch order.
    expect(p.updates).toHaveLength(1);
    expect(p.updates[0]?.candidates.map((c) => c.skill.name)).toEqual([
      'bad-1',
      'good-1',
      'ok-1',
      'ok-2',
      'ok-3',
      'bad-2',
    ]);
    expect(r.advantages?.map((a) => a.advantage)).toEqual(p.updates[0]?.advantages);
    expect(r.advantages?.[1]).toEqual({ taskId: 'a', candidate: 1, reward: 1, advantage: 0.5 });
    expect(r.trainMetrics).toEqual({ loss: 0.5 });
    expect(r.estimatorMetrics).toEqual({ batch: 6 });
    // Best carried: good-1 for a; b ties ok-2 and ok-3, the earliest wins.
    expect(r.tasks).toEqual([
      { taskId: 'a', skill: skill('good-1'), meanReward: 0.5, bestReward: 1, candidates: 3, inter: 0 },
      {
        taskId: 'b',
        skill: skill('ok-2'),
        meanReward: 1 / 3,
        bestReward: 0.5,
        candidates: 3,
        inter: 1 / 3 - 0.5,
      },
    ]);
    const history = r.state.tasks.a?.history ?? [];
    expect(history.map((h) => h.generation)).toEqual([0, 1]);
    expect(history[1]?.candidates?.map((c) => c.reward)).toEqual([0, 1, 0.5]);
    expect(history[1]?.successes).toHaveLength(2);
    expect(history[1]?.failures).toHaveLength(3);
    expect(r.state.tasks.b).toMatchObject({ current: skill('ok-2'), previousMean: 1 / 3 });
    expect(r.state.generationMeans).toEqual([0.5, (0 + 1 + 0.5 + 0.5 + 0.5 + 0) / 6]);
  });

  it('re-reads stored candidates instead of proposing; held out (train: false) does not update', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const p = ports();
    p.stored.set('a', [{ skill: skill('good-stored'), text: '' }]);
    p.stored.set('b', [{ skill: skill('bad-stored'), text: '' }]);
    const r = await runSkillR1Generation(
      base({ generation: 1, unit: 'h1', state: start.state, train: false }),
      p.value,
    );
    expect(p.proposeCalls).toEqual([]);
    expect(p.updates).toEqual([]);
    expect(r.trainMetrics).toBeUndefined();
    expect(r.tasks.map((t) => t.skill?.name)).toEqual(['good-stored', 'bad-stored']);
  });

  it('vanilla GRPO: no previous means in the batch', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const p = ports();
    await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: start.state, lambda: 0, interGeneration: false }),
      p.value,
    );
    expect(p.batches[0]?.previousMeans).toEqual({});
    expect(p.batches[0]?.lambdas).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('an editor proposing nothing valid leaves the current skill; without one, or invalid, it stops', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const empty = ports({ propose: async () => [] });
    const r = await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: start.state }),
      empty.value,
    );
    expect(empty.stored.get('a')).toEqual([
      {
        skill: skill('ok-start'),
        text: formatSkill(skill('ok-start')),
        info: { fallback: 'no valid candidate' },
      },
    ]);
    expect(r.tasks.map((t) => t.skill?.name)).toEqual(['ok-start', 'ok-start']);

    const editor = { name: 'package:my-editor', argument: 'evolve.generator' };
    await expect(
      runSkillR1Generation(
        base({ generation: 1, unit: 'g1', state: createSkillR1State(tasks), editor }),
        ports({ propose: async () => [] }).value,
      ),
    ).rejects.toThrow(/evolve\.generator.*package:my-editor proposed no valid candidate for a/);
    const bad = ports({ propose: async () => [{ skill: skill('Bad_Name'), text: '' }] });
    await expect(
      runSkillR1Generation(base({ generation: 1, unit: 'g1', state: start.state, editor }), bad.value),
    ).rejects.toThrow(/\[name-charset\] name/);
    expect(bad.requests).toEqual([]);
  });

  it("carry: 'sample' draws in proportion to reward from the seed", async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const pick = async (seed: number) =>
      (
        await runSkillR1Generation(
          base({ generation: 1, unit: 'g1', state: start.state, carry: 'sample', rng: createRng(seed) }),
          ports().value,
        )
      ).tasks.map((t) => t.skill?.name);
    expect(await pick(3)).toEqual(await pick(3));
    const seen = new Set<string>();
    for (let s = 0; s < 40; s++) for (const name of await pick(s)) seen.add(name as string);
    // Zero-reward candidates are never drawn while another has a positive reward.
    expect(seen.has('bad-1')).toBe(false);
    expect(seen.has('good-1') && seen.has('ok-1')).toBe(true);
  });
});
