import {
  type AdvantageBatch,
  createRng,
  formatSkill,
  type RejectedProposal,
  type Skill,
  type SkillCandidate,
  type SkillGenerationContext,
  type Task,
  type Trajectory,
} from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { SKILL_R1_GENERATION_BATCH_FIELDS } from './generation-batch-fields.js';
import type { SkillR1Proposal, SkillR1ProposalAttempt } from './propose-candidates.js';
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
      return s - m + (batch.interGenerationWeights?.[i] ?? 0) * (prev === undefined ? 0 : m - prev);
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
  const updates: {
    candidates: readonly SkillCandidate[];
    advantages: number[];
    rejected: readonly RejectedProposal[];
  }[] = [];
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
    async update(candidates, advantages, context) {
      updates.push({ candidates, advantages: Array.from(advantages), rejected: context.rejected });
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
      { taskId: 'a', skill: skill('ok-start'), meanReward: 0.5, bestReward: 0.5, rolloutsErrored: 0 },
      { taskId: 'b', skill: skill('ok-start'), meanReward: 0.5, bestReward: 0.5, rolloutsErrored: 0 },
    ]);
    expect(r.rolloutsErrored).toBe(0);
    expect(r.unscored).toBeUndefined();
    expect(r.state.tasks.a).toMatchObject({
      current: skill('ok-start'),
      previousMean: 0.5,
      carriedMean: 0.5,
    });
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
    expect(free.state.tasks.a).toEqual({ history: [], previousMean: 0, carriedMean: 0 });
  });

  it('fills exactly the fields it declares (SKILL_R1_GENERATION_BATCH_FIELDS), each declared once', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const p = ports();
    await runSkillR1Generation(base({ generation: 1, unit: 'g1', state: start.state }), p.value);
    const declared = SKILL_R1_GENERATION_BATCH_FIELDS.map((f) => f.field);
    expect(new Set(declared).size).toBe(declared.length);
    expect(p.batches.length).toBeGreaterThan(0);
    for (const batch of p.batches) expect(Object.keys(batch).sort()).toEqual([...declared].sort());
    // The method inputs first: an option two fields replace is reported under them.
    expect(declared.slice(0, 3)).toEqual(['interGenerationWeights', 'previousMeans', 'carriedMeans']);
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
    expect(batch?.interGenerationWeights).toEqual([1, 1, 1, 1, 1, 1]);
    expect(batch?.generations).toEqual([1, 1, 1, 1, 1, 1]);
    // Generation 1: both baselines are s0's rollouts.
    expect(batch?.previousMeans).toEqual({ a: 0.5, b: 0.5 });
    expect(batch?.carriedMeans).toEqual({ a: 0.5, b: 0.5 });
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
      {
        taskId: 'a',
        skill: skill('good-1'),
        meanReward: 0.5,
        bestReward: 1,
        candidates: 3,
        inter: 0,
        proposals: { calls: 1, failedCalls: 0, rejected: 0, reused: false },
        rolloutsErrored: 0,
        unscoredCandidates: 0,
        signal: { candidates: 3, identicalCandidates: 0, zeroVariance: false },
      },
      {
        taskId: 'b',
        skill: skill('ok-2'),
        meanReward: 1 / 3,
        bestReward: 0.5,
        candidates: 3,
        inter: 1 / 3 - 0.5,
        proposals: { calls: 1, failedCalls: 0, rejected: 0, reused: false },
        rolloutsErrored: 0,
        unscoredCandidates: 0,
        signal: { candidates: 3, identicalCandidates: 0, zeroVariance: false },
      },
    ]);
    // The generation carried signal: candidates differ from their parent and score differently.
    expect(r.signal).toEqual({
      groups: 2,
      zeroVarianceGroups: 0,
      candidates: 6,
      identicalCandidates: 0,
      fallbacks: 0,
      zeroUpdate: false,
    });
    expect(r.proposals).toEqual({
      tasks: 2,
      editorCalls: 1 + 1,
      failedCalls: 0,
      rejectedProposals: 0,
      fallbacks: 0,
      reusedTasks: 0,
      reusedCalls: 0,
    });
    const history = r.state.tasks.a?.history ?? [];
    expect(history.map((h) => h.generation)).toEqual([0, 1]);
    expect(history[1]?.candidates?.map((c) => c.reward)).toEqual([0, 1, 0.5]);
    expect(history[1]?.successes).toHaveLength(2);
    expect(history[1]?.failures).toHaveLength(3);
    expect(r.state.tasks.b).toMatchObject({ current: skill('ok-2'), previousMean: 1 / 3, carriedMean: 0.5 });
    expect(r.state.generationMeans).toEqual([0.5, (0 + 1 + 0.5 + 0.5 + 0.5 + 0) / 6]);

    // Generation 2's batch: the previous generation's mean over all candidates, and the carried one's own.
    const next = ports();
    await runSkillR1Generation(base({ generation: 2, unit: 'g2', state: r.state }), next.value);
    expect(next.batches[0]?.previousMeans).toEqual({ a: 0.5, b: 1 / 3 });
    expect(next.batches[0]?.carriedMeans).toEqual({ a: 1, b: 0.5 });
  });

  it("carry 'sample': carriedMeans is the sampled candidate's mean", async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const r = await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: start.state, carry: 'sample' }),
      ports().value,
    );
    const next = ports();
    await runSkillR1Generation(base({ generation: 2, unit: 'g2', state: r.state }), next.value);
    for (const outcome of r.tasks) {
      expect(next.batches[0]?.carriedMeans?.[outcome.taskId], outcome.taskId).toBe(outcome.bestReward);
    }
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

  it('vanilla GRPO: no A_inter baselines in the batch, λ 0', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const p = ports();
    await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: start.state, lambda: 0, interGeneration: false }),
      p.value,
    );
    expect(p.batches[0]?.previousMeans).toEqual({});
    expect(p.batches[0]?.carriedMeans).toEqual({});
    expect(p.batches[0]?.interGenerationWeights).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('an editor proposing nothing valid is asked again with the reasons, then the current skill stands', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const contexts: SkillGenerationContext[] = [];
    const attempts: [string, SkillR1ProposalAttempt][] = [];
    const proposals: SkillR1Proposal[] = [];
    const bad = ports({
      async propose(context, n) {
        contexts.push(context);
        return Array.from({ length: n }, (_, i) => ({ skill: skill(`Bad_${i}`), text: `Bad_${i}` }));
      },
      onAttempt: (taskId, attempt) => {
        attempts.push([taskId, attempt]);
      },
    });
    const onCandidates = bad.value.onCandidates;
    bad.value.onCandidates = (taskId, candidates, proposal) => {
      proposals.push(proposal);
      return onCandidates?.(taskId, candidates, proposal);
    };
    const r = await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: start.state, proposalRetries: 2, proposalConcurrency: 1 }),
      bad.value,
    );
    // Three calls per task: the first as before, then two retries that carry every earlier rejection.
    expect(contexts.map((c) => [c.task.id, c.attempt ?? 0, c.rejections?.length ?? 0])).toEqual([
      ['a', 0, 0],
      ['a', 1, 3],
      ['a', 2, 6],
      ['b', 0, 0],
      ['b', 1, 3],
      ['b', 2, 6],
    ]);
    expect(contexts[0]?.seed).toBe(createRng(7).fork('g1').seedFor('a'));
    expect(contexts[1]?.seed).toBe(createRng(7).fork('g1').fork('a').seedFor('retry/1'));
    expect(contexts[1]?.rejections?.[0]).toEqual({
      kind: 'invalid',
      reason: expect.stringContaining('[name-charset] name'),
      excerpt: 'Bad_0',
      attempt: 0,
    });
    expect(attempts.map(([t, a]) => [t, a.attempt, a.accepted, a.rejections.length])).toEqual([
      ['a', 0, 0, 3],
      ['a', 1, 0, 3],
      ['a', 2, 0, 3],
      ['b', 0, 0, 3],
      ['b', 1, 0, 3],
      ['b', 2, 0, 3],
    ]);
    // The current skill stands, marked as the fallback it is, with the rejections stored beside it.
    expect(bad.stored.get('a')).toEqual([
      {
        skill: skill('ok-start'),
        text: formatSkill(skill('ok-start')),
        info: { fallback: 'current-skill', reason: 'no valid candidate in 3 editor calls' },
      },
    ]);
    expect(proposals[0]).toMatchObject({ fallback: 'current-skill' });
    expect(proposals[0]?.attempts).toHaveLength(3);
    expect(r.tasks.map((t) => [t.skill?.name, t.fallback, t.proposals])).toEqual([
      ['ok-start', 'current-skill', { calls: 3, failedCalls: 0, rejected: 9, reused: false }],
      ['ok-start', 'current-skill', { calls: 3, failedCalls: 0, rejected: 9, reused: false }],
    ]);
    expect(r.proposals).toEqual({
      tasks: 2,
      editorCalls: 6,
      failedCalls: 0,
      rejectedProposals: 18,
      fallbacks: 2,
      reusedTasks: 0,
      reusedCalls: 0,
    });
    // The generation ran (the fallbacks' episodes); the editor learned nothing from skills it did not write.
    expect(bad.requests.filter((q) => q.generation === 1)).toHaveLength(1);
    expect(bad.updates).toEqual([]);
    expect(r.advantages?.every((a) => a.fallback === true)).toBe(true);
  });

  it('a retry that succeeds is used; a call that throws counts as a failed call; a cancel stops', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    let calls = 0;
    const flaky = ports({
      async propose(context, n) {
        calls++;
        if (context.task.id === 'a' && !context.attempt) throw new Error('HTTP 500 from the editor');
        if (context.task.id === 'b' && !context.attempt) {
          context.onReject?.({ reason: 'no SKILL.md in the reply', excerpt: 'I cannot help.' });
          return [];
        }
        return [{ skill: skill(`good-${context.task.id}`), text: '' }].slice(0, n);
      },
    });
    const r = await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: start.state }),
      flaky.value,
    );
    expect(calls).toBe(4);
    expect(r.tasks.map((t) => [t.skill?.name, t.fallback, t.proposals])).toEqual([
      ['good-a', undefined, { calls: 2, failedCalls: 1, rejected: 0, reused: false }],
      ['good-b', undefined, { calls: 2, failedCalls: 0, rejected: 1, reused: false }],
    ]);
    expect(r.proposals).toMatchObject({ editorCalls: 4, failedCalls: 1, rejectedProposals: 1, fallbacks: 0 });
    expect(flaky.updates).toHaveLength(1);

    const controller = new AbortController();
    const cancelled = ports({
      async propose() {
        controller.abort(new Error('stop'));
        throw new Error('aborted');
      },
    });
    await expect(
      runSkillR1Generation(
        base({ generation: 1, unit: 'g1', state: start.state, signal: controller.signal }),
        cancelled.value,
      ),
    ).rejects.toThrow(/stop|aborted/);
    expect(cancelled.requests.filter((q) => q.generation === 1)).toEqual([]);
  });

  it('with no current skill a task that gets nothing valid runs without a skill, honestly recorded', async () => {
    const p = ports({
      propose: async (context) => (context.task.id === 'a' ? [] : [{ skill: skill('good-b'), text: '' }]),
    });
    const r = await runSkillR1Generation(
      base({ generation: 1, unit: 'g1', state: createSkillR1State(tasks), proposalRetries: 1 }),
      p.value,
    );
    expect(p.stored.get('a')).toEqual([]);
    const [request] = p.requests;
    expect(request?.skills(task('a'))).toBeUndefined();
    expect(r.tasks[0]).toEqual({
      taskId: 'a',
      meanReward: 0,
      bestReward: 0,
      candidates: 0,
      fallback: 'no-skill',
      proposals: { calls: 2, failedCalls: 0, rejected: 2, reused: false },
      rolloutsErrored: 0,
      unscoredCandidates: 0,
    });
    // No skill, no history record; the skill-free mean is the next generation's A_inter baseline.
    expect(r.state.tasks.a).toEqual({ history: [], previousMean: 0, carriedMean: 0 });
    expect(p.batches[0]?.groupIds).toEqual(['b']);
    expect(r.advantages?.map((a) => a.taskId)).toEqual(['b']);
    expect(r.state.generationMeans[1]).toBe(0.5);
  });

  it('resume: stored failed calls are not sent again, stored proposals not at all', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const contexts: SkillGenerationContext[] = [];
    const p = ports({
      async propose(context) {
        contexts.push(context);
        return [{ skill: skill(`good-${context.task.id}`), text: '' }];
      },
      storedAttempts: (taskId) =>
        taskId === 'a'
          ? [
              {
                attempt: 0,
                seed: 1,
                requested: 3,
                accepted: 0,
                rejections: [{ kind: 'reply', reason: 'no SKILL.md in the reply', attempt: 0 }],
              },
            ]
          : [],
      storedProposal: (taskId) =>
        taskId === 'b'
          ? {
              candidates: [{ skill: skill('ok-stored'), text: '' }],
              attempts: [{ attempt: 0, seed: 2, requested: 3, accepted: 1, rejections: [] }],
            }
          : undefined,
    });
    const r = await runSkillR1Generation(base({ generation: 1, unit: 'g1', state: start.state }), p.value);
    // Task a continues with its second call, told what was wrong with the first; b is not asked at all.
    expect(contexts.map((c) => [c.task.id, c.attempt, c.rejections?.map((x) => x.reason)])).toEqual([
      ['a', 1, ['no SKILL.md in the reply']],
    ]);
    expect(r.tasks.map((t) => t.skill?.name)).toEqual(['good-a', 'ok-stored']);
    expect(r.proposals).toMatchObject({
      editorCalls: 3,
      reusedCalls: 2,
      reusedTasks: 1,
      rejectedProposals: 1,
    });
  });

  it('the update is given the rejected replies that carry their tokens, the same on a resumed generation', async () => {
    const start = await runSkillR1Generation(base(), ports().value);
    const prompt = [{ role: 'user' as const, content: 'write a skill' }];
    const tokens = (k: number) => ({ tokenIds: [k, k + 1], logProbs: [-0.5, -0.25], prompt });
    // Task a: one reply without a SKILL.md (with its tokens) and one without tokens, then a valid candidate;
    // task b: a first call of invalid skills (one with tokens), then nothing valid: it falls back.
    const editor = (): Partial<SkillR1Ports> => ({
      async propose(context) {
        if (context.task.id === 'a') {
          context.onReject?.({ kind: 'reply', reason: 'no SKILL.md in the reply', reply: tokens(1) });
          context.onReject?.({ kind: 'reply', reason: 'the reply is empty' });
          return [{ skill: skill('good-a'), text: 'good-a' }];
        }
        return [
          { skill: skill('Bad_b'), text: 'Bad_b', ...tokens(7), info: { prompt } },
          { skill: skill('Bad_c'), text: 'Bad_c' },
        ];
      },
    });
    const fresh = ports(editor());
    const proposals = new Map<string, SkillR1Proposal>();
    const onCandidates = fresh.value.onCandidates;
    fresh.value.onCandidates = (taskId, candidates, proposal) => {
      proposals.set(taskId, JSON.parse(JSON.stringify(proposal)));
      return onCandidates?.(taskId, candidates, proposal);
    };
    const input = base({ generation: 1, unit: 'g1', state: start.state, proposalRetries: 1 });
    await runSkillR1Generation(input, fresh.value);
    const rejected = fresh.updates[0]?.rejected ?? [];
    // a's tokened reply, then b's two calls (attempts 0 and 1), each with one tokened invalid skill.
    expect(rejected.map((r) => [r.kind, r.attempt, r.reply?.tokenIds])).toEqual([
      ['reply', 0, [1, 2]],
      ['invalid', 0, [7, 8]],
      ['invalid', 1, [7, 8]],
    ]);
    expect(rejected[0]?.reply?.prompt).toEqual(prompt);
    // Resumed from what was stored: nothing proposed again, the same rejected replies given to the update.
    const resumed = ports({
      propose: () => Promise.reject(new Error('a stored proposal is not proposed again')),
      storedProposal: (taskId) => proposals.get(taskId),
    });
    await runSkillR1Generation(input, resumed.value);
    expect(resumed.updates[0]?.rejected).toEqual(rejected);
    expect(resumed.updates[0]?.advantages).toEqual(fresh.updates[0]?.advantages);
  });

  it('proposes for the tasks concurrently up to the limit; results and seeds are per task, in task order', async () => {
    const many = Array.from({ length: 6 }, (_, i) => task(`t${i}`));
    const start = await runSkillR1Generation(
      base({ tasks: many, state: createSkillR1State(many) }),
      ports().value,
    );
    let inFlight = 0;
    let peak = 0;
    const seen: string[] = [];
    const run = async (concurrency: number) => {
      const progress: number[] = [];
      const p = ports({
        async propose(context) {
          inFlight++;
          peak = Math.max(peak, inFlight);
          // Later tasks answer first.
          await new Promise((resolve) => setTimeout(resolve, 30 - 4 * Number(context.task.id.slice(1))));
          inFlight--;
          seen.push(context.task.id);
          return [{ skill: skill(`good-${context.task.id}-${context.seed}`), text: '' }];
        },
        onProposed: ({ done }) => {
          progress.push(done);
        },
      });
      const r = await runSkillR1Generation(
        base({
          tasks: many,
          generation: 1,
          unit: 'g1',
          state: start.state,
          proposalConcurrency: concurrency,
        }),
        p.value,
      );
      return { r, progress };
    };
    peak = 0;
    const four = await run(4);
    expect(peak).toBe(4);
    expect(four.progress).toEqual([1, 2, 3, 4, 5, 6]);
    peak = 0;
    const one = await run(1);
    expect(peak).toBe(1);
    // Whatever the order calls finished in, each task got its own seed and the outcome is the same.
    expect(four.r.tasks.map((t) => t.skill?.name)).toEqual(one.r.tasks.map((t) => t.skill?.name));
    expect(four.r.tasks.map((t) => t.taskId)).toEqual(many.map((t) => t.id));
    expect(four.r.tasks[2]?.skill?.name).toBe(`good-t2-${createRng(7).fork('g1').seedFor('t2')}`);
    expect(seen.slice(0, 4)).not.toEqual(['t0', 't1', 't2', 't3']);
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
