import type { GenerationRecord, Skill, SkillGenerationContext, SkillGenerator, Task } from '@skillrl/core';
import { InvalidArgumentError, parseSkill } from '@skillrl/core';
import household from '@skillrl/task-household';
import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepEditor, END_OF_SKILL, type StepCandidate, type StepEditor } from './create-step-editor.js';
import { applyOp, startEdit } from './edit-ops.js';
import { buildStepIndex, normalizeStep } from './step-index.js';
import { readNumberedSteps, renderStepSkill } from './step-skill.js';

const vocabulary = household.stepVocabulary?.() ?? {};
const HEAT = 'pick_heat_then_place_in_recep';
// Task index i has family families[i % 6]: index 3 is a heat task.
const heatTask = (household.load({ split: 'train', limit: 4, seed: 7 }) as Task[])[3] as Task;
// The adapter's hand-written heat skill (s0): four numbered lines, none of them a vocabulary phrase.
const s0Heat = household.skills().find((s) => s.name === 'household-heat') as Skill;

function context(overrides: Partial<SkillGenerationContext> = {}): SkillGenerationContext {
  return { task: heatTask, generation: 1, history: [], seed: 11, ...overrides };
}

describe('createStepEditor', () => {
  const editors: StepEditor[] = [];
  const make = (options: Partial<Parameters<typeof createStepEditor>[0]> = {}) => {
    const editor = createStepEditor({ vocabulary, seed: 3, ...options });
    editors.push(editor);
    return editor;
  };

  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
  });
  afterAll(() => {
    for (const e of editors) e.dispose();
  });

  it('is a core SkillGenerator, and the heat task fixture is a heat task', () => {
    const generator: SkillGenerator = make();
    expect(generator.name).toBe('step-editor');
    expect(typeof generator.update).toBe('function');
    expect(heatTask.family).toBe(HEAT);
  });

  it('writes from scratch without a current skill: inserts of family phrases, per-operation log-probs', async () => {
    const editor = make({ maxSteps: 10 });
    const candidates = await editor.propose(context(), 12);
    expect(candidates).toHaveLength(12);
    const own = new Set(vocabulary[HEAT]);
    for (const c of candidates) {
      const info = c.info.stepEditor;
      expect(parseSkill(c.text)).toEqual(c.skill);
      expect(c.skill).toEqual(renderStepSkill(HEAT, info.steps));
      expect(c.skill.families).toEqual([HEAT]);
      expect(c.skill.name).toBe('pick-heat-then-place-in-recep-steps');
      expect(info.source).toEqual([]);
      expect(info.steps.length).toBeGreaterThanOrEqual(1);
      expect(info.steps.length).toBeLessThanOrEqual(10);
      for (const s of info.steps) expect(own.has(s)).toBe(true);
      expect(new Set(info.steps).size).toBe(info.steps.length); // no repeats by default
      // One insert per line, then the end.
      expect(info.ops).toEqual([...info.steps.map((s) => `insert: ${s}`), END_OF_SKILL]);
      expect(c.tokenIds.map((t) => editor.operations[t])).toEqual(info.ops);
      expect(info.edits).toBe(info.steps.length);
      expect(c.logProbs).toHaveLength(c.tokenIds.length);
      for (const lp of c.logProbs) expect(lp).toBeLessThanOrEqual(0);
      expect(c.logProb).toBeCloseTo(
        c.logProbs.reduce((s, x) => s + x, 0),
        10,
      );
      expect(readNumberedSteps(c.skill.body)).toHaveLength(info.steps.length);
    }
    // Twelve samples of up to ten steps out of ten phrases: not all the same skill.
    expect(new Set(candidates.map((c) => c.text)).size).toBeGreaterThan(1);
  });

  it('edits the current skill: a local search that mostly keeps its lines, fewest edits first', async () => {
    const editor = make();
    const source = readNumberedSteps(s0Heat.body);
    const candidates = await editor.propose(context({ currentSkill: s0Heat }), 32);
    for (const c of candidates) {
      const info = c.info.stepEditor;
      expect(info.source).toEqual(source);
      // Replaying the operations on the source gives the skill's lines.
      const state = startEdit(source);
      for (const t of c.tokenIds) applyOp(state, t, buildStepIndex(vocabulary));
      expect(state.ended).toBe(true);
      expect(info.steps).toEqual(state.output);
      expect(readNumberedSteps(c.skill.body).map(normalizeStep)).toEqual(info.steps.map(normalizeStep));
      expect(info.edits).toBe(info.ops.filter((o) => o !== 'keep' && o !== END_OF_SKILL).length);
    }
    const edits = candidates.map((c) => c.info.stepEditor.edits);
    expect(edits).toEqual([...edits].sort((a, b) => a - b));
    // keepPrior 4: keep e^4 against delete 1, swap 1, all inserts 1, all replaces 1, so lines 1–3 are kept
    // with e^4 / (e^4 + 4) ≈ 0.932, line 4 (no swap) with e^4 / (e^4 + 3) ≈ 0.948, and the end taken with
    // e^4 / (e^4 + 1) ≈ 0.982: about 0.932^3 · 0.948 · 0.982 ≈ 0.75 of candidates are unchanged (untrained
    // network noise aside); at least one is edited among 32.
    const unchanged = candidates.filter((c) => c.info.stepEditor.edits === 0);
    expect(unchanged.length).toBeGreaterThanOrEqual(18);
    expect(unchanged.length).toBeLessThan(32);
    for (const c of unchanged) expect(c.info.stepEditor.steps).toEqual(source);
    // keepPrior 0 makes it a wide search.
    const wide = await make({ keepPrior: 0 }).propose(context({ currentSkill: s0Heat }), 32);
    expect(wide.filter((c) => c.info.stepEditor.edits === 0).length).toBeLessThan(8);
  });

  it('revises the skill with the best pooled reward in the history, or the carried one with base "current"', async () => {
    const edited = renderStepSkill(HEAT, ['take the object', 'heat the object with the microwave']);
    const history: GenerationRecord[] = [
      { generation: 0, skill: s0Heat, reward: 1 },
      { generation: 1, skill: edited, reward: 0, candidates: [{ skill: edited, reward: 0 }] },
    ];
    const best = await make().propose(context({ currentSkill: edited, history, generation: 2 }), 2);
    expect(best[0]?.info.stepEditor.source).toEqual(readNumberedSteps(s0Heat.body));
    const carried = await make({ base: 'current' }).propose(
      context({ currentSkill: edited, history, generation: 2 }),
      2,
    );
    expect(carried[0]?.info.stepEditor.source).toEqual([
      'Take the object.',
      'Heat the object with the microwave.',
    ]);
  });

  it('is deterministic for a seed and varies with it', async () => {
    const a = make({ keepPrior: 1 });
    const b = make({ keepPrior: 1 });
    const ctx = context({ currentSkill: s0Heat });
    const first = await a.propose(ctx, 6);
    expect((await b.propose(ctx, 6)).map((c) => c.text)).toEqual(first.map((c) => c.text));
    expect((await a.propose(ctx, 6)).map((c) => c.logProbs)).toEqual(first.map((c) => c.logProbs));
    const other = await a.propose({ ...ctx, seed: 12 }, 6);
    expect(other.map((c) => c.text)).not.toEqual(first.map((c) => c.text));
    const nextGeneration = await a.propose({ ...ctx, generation: 2 }, 6);
    expect(nextGeneration.map((c) => c.text)).not.toEqual(first.map((c) => c.text));
    // Without a context seed the editor's own seed decides.
    const { seed: _s, ...unseeded } = ctx;
    const c1 = await make({ seed: 5, keepPrior: 1 }).propose(unseeded, 6);
    const c2 = await make({ seed: 5, keepPrior: 1 }).propose(unseeded, 6);
    expect(c1.map((c) => c.text)).toEqual(c2.map((c) => c.text));
  });

  it('from scratch, the order prior makes the family plan order likely at initialisation', async () => {
    const editor = make();
    const plan = vocabulary[HEAT] as string[];
    const start = await editor.nextStepDistribution(context());
    const best = start.reduce((m, x) => (x.probability > m.probability ? x : m));
    expect(best.step).toBe(`insert: ${plan[0]}`);
    // Other families' phrases, keep/delete/swap/replace (no lines) and, before minSteps, the end are masked.
    const shared = new Set(plan.map((p) => `insert: ${p}`));
    for (const p of start) {
      if (!shared.has(p.step)) expect(p.probability).toBe(0);
    }
    const inserts = plan.slice(0, plan.length - 1).map((p) => `insert: ${p}`);
    const afterLast = await editor.nextStepDistribution(context(), inserts);
    // With nine of ten phrases written, only the tenth and the end remain.
    const open = afterLast.filter((p) => p.probability > 0).map((p) => p.step);
    expect(open.sort()).toEqual([END_OF_SKILL, `insert: ${plan.at(-1)}`].sort());
    const total = start.reduce((s, p) => s + p.probability, 0);
    expect(total).toBeCloseTo(1, 5);
  });

  it('scores proposals exactly as it proposed them, and step by step as nextStepDistribution', async () => {
    const editor = make({ keepPrior: 1 });
    const ctx = context({ currentSkill: s0Heat });
    const candidates = await editor.propose(ctx, 4);
    const scored = await editor.score(candidates);
    scored.forEach((s, i) => {
      expect(s.logProbs).toEqual((candidates[i] as StepCandidate).logProbs);
    });
    const c = candidates.at(-1) as StepCandidate;
    expect(c.info.stepEditor.edits).toBeGreaterThan(0);
    const ops = c.info.stepEditor.ops;
    for (let t = 0; t < ops.length; t++) {
      const dist = await editor.nextStepDistribution(ctx, ops.slice(0, t));
      const p = dist.find((x) => x.step === ops[t])?.probability ?? 0;
      expect(Math.log(p)).toBeCloseTo(c.logProbs[t] as number, 4);
    }
  });

  it('an update moves probability toward the higher-advantage candidate', async () => {
    const run = async (advantages: [number, number]) => {
      const editor = make({ seed: 21 });
      const all = await editor.propose(context(), 8);
      // Two different skills, so the comparison is not of a candidate with itself.
      const a = all[0] as StepCandidate;
      const b = all.find((c) => c.text !== a.text) as StepCandidate;
      const before = await editor.score([a, b]);
      for (let i = 0; i < 3; i++) await editor.update([a, b], advantages);
      const after = await editor.score([a, b]);
      return {
        a: (after[0]?.logProb as number) - (before[0]?.logProb as number),
        b: (after[1]?.logProb as number) - (before[1]?.logProb as number),
      };
    };
    const up = await run([1, -1]);
    expect(up.a).toBeGreaterThan(0);
    expect(up.b).toBeLessThan(0);
    const down = await run([-1, 1]);
    expect(down.a).toBeLessThan(0);
    expect(down.b).toBeGreaterThan(0);
  });

  it('one update widens the gap between a higher- and a lower-advantage candidate, whatever the seed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), async (seed) => {
        const editor = createStepEditor({ vocabulary, seed, hiddenSize: 16 });
        try {
          const all = await editor.propose(context({ seed }), 6);
          const a = all[0] as StepCandidate;
          const b = all.find((c) => c.text !== a.text);
          if (b === undefined) return;
          const [a0, b0] = await editor.score([a, b]);
          await editor.update([a, b], [1, -1]);
          const [a1, b1] = await editor.score([a, b]);
          // The surrogate raises mean log π(a) − mean log π(b) (seq-mean-token-mean), to first order.
          const gap = (x: { logProbs: number[] }, y: { logProbs: number[] }) =>
            x.logProbs.reduce((s, v) => s + v, 0) / x.logProbs.length -
            y.logProbs.reduce((s, v) => s + v, 0) / y.logProbs.length;
          expect(gap(a1 as never, b1 as never)).toBeGreaterThan(gap(a0 as never, b0 as never));
        } finally {
          editor.dispose();
        }
      }),
      { numRuns: 6 },
    );
  });

  it('runs several epochs per update against the proposal log-probs', async () => {
    const editor = make({ epochs: 3, learningRate: 0.2 });
    const candidates = await editor.propose(context(), 6);
    const metrics = await editor.update(candidates, [1, -1, 1, -1, 0.5, -0.5]);
    expect(metrics.epochs).toBe(3);
    expect(metrics.updates).toBe(3);
    expect(editor.updates).toBe(3);
    // By the third epoch the policy has moved away from π_old: ratios are no longer 1.
    expect(Math.abs(metrics.approx_kl ?? 0)).toBeGreaterThan(0);
  });

  it('reports GRPO metrics: on-policy ratios and zero KL on the first step, KL after', async () => {
    const editor = make();
    const candidates = await editor.propose(context(), 4);
    const first = await editor.update(candidates, [1, -1, 0.5, -0.5]);
    // Policy = reference and old = current on the first step: k3(0) = e^0 + 0 − 1 = 0, nothing clipped.
    expect(first.kl).toBeCloseTo(0, 6);
    expect(first.clipfrac).toBe(0);
    expect(first.approx_kl).toBeCloseTo(0, 6);
    expect(first.sequences).toBe(4);
    expect(first.tokens).toBe(candidates.reduce((s, c) => s + c.tokenIds.length, 0));
    expect(first.updates).toBe(1);
    const second = await editor.update(candidates, [1, -1, 0.5, -0.5]);
    expect(second.kl).toBeGreaterThan(0);
    expect(editor.updates).toBe(2);
  });

  it('leaks no tensors across proposals and updates', async () => {
    const editor = make();
    const candidates = await editor.propose(context(), 6);
    await editor.update(candidates, [1, 0, -1, 0.5, -0.5, 0]); // creates Adam's slots
    const baseline = tf.memory().numTensors;
    for (let i = 0; i < 10; i++) {
      const current = i % 2 === 0 ? { currentSkill: s0Heat } : {};
      const fresh = await editor.propose(context({ generation: 2 + i, ...current }), 6);
      await editor.update(fresh, [1, 0, -1, 0.5, -0.5, 0]);
      await editor.score(fresh);
      await editor.nextStepDistribution(context());
    }
    expect(tf.memory().numTensors).toBe(baseline);
  });

  it('conditions on the history: failures and earlier rewards change the next-step distribution', async () => {
    const editor = make();
    const plan = vocabulary[HEAT] as string[];
    const tried = renderStepSkill(HEAT, plan.slice(0, 3));
    const history: GenerationRecord[] = [
      {
        generation: 1,
        skill: tried,
        reward: 0.25,
        candidates: [{ skill: tried, reward: 0.25 }],
        failures: [
          {
            trajectoryId: 't1',
            reward: 0,
            passed: false,
            failingStep: 4,
            lastObservation: 'The microwave 1 is closed.',
            reason: 'goal not reached',
          },
        ],
      },
    ];
    const empty = await editor.nextStepDistribution(context());
    const informed = await editor.nextStepDistribution(context({ history, generation: 2 }));
    const diff = empty.reduce((s, p, i) => s + Math.abs(p.probability - (informed[i]?.probability ?? 0)), 0);
    expect(diff).toBeGreaterThan(1e-4);
  });

  it('learns from a reward: a short GRPO run raises the rate of short skills that heat the object', async () => {
    // Reward 1 when the skill heats the object and stops within four steps: rare at initialisation
    // without the order prior, so the rise is the editor's doing.
    const heat = 'heat the object with the microwave';
    const reward = (c: StepCandidate): number => {
      const s = c.info.stepEditor.steps;
      return s.includes(heat) && s.length <= 4 ? 1 : 0;
    };
    const editor = make({ orderPrior: 0, learningRate: 0.03, seed: 8 });
    const rate = async (generation: number) => {
      const sample = await editor.propose(context({ generation, seed: 999 }), 64);
      return sample.reduce((s, c) => s + reward(c), 0) / sample.length;
    };
    const before = await rate(1000);
    for (let step = 0; step < 15; step++) {
      const group = await editor.propose(context({ generation: step + 1 }), 16);
      const r = group.map(reward);
      const mean = r.reduce((s, x) => s + x, 0) / r.length;
      await editor.update(
        group,
        r.map((x) => x - mean),
      );
    }
    const after = await rate(1000);
    expect(after).toBeGreaterThan(before + 0.2);
  });

  it('learns which revision pays: a short GRPO run raises the rate of "take the object" as the first line', async () => {
    // Reward 1 when the revised heat skill opens with the phrase "take the object" (by inserting it first
    // or replacing the first line with it): a few per cent of proposals at initialisation.
    const reward = (c: StepCandidate): number => (c.info.stepEditor.steps[0] === 'take the object' ? 1 : 0);
    const editor = make({ keepPrior: 1, learningRate: 0.03, seed: 8 });
    const ctx = (generation: number, seed?: number) =>
      context({ currentSkill: s0Heat, generation, ...(seed !== undefined && { seed }) });
    const rate = async () => {
      const sample = await editor.propose(ctx(1000, 999), 64);
      return sample.reduce((s, c) => s + reward(c), 0) / sample.length;
    };
    const before = await rate();
    for (let step = 0; step < 15; step++) {
      const group = await editor.propose(ctx(step + 1), 16);
      const r = group.map(reward);
      const mean = r.reduce((s, x) => s + x, 0) / r.length;
      await editor.update(
        group,
        r.map((x) => x - mean),
      );
    }
    const after = await rate();
    expect(before).toBeLessThan(0.1);
    expect(after).toBeGreaterThan(before + 0.2);
  });

  it('rejects bad calls with errors naming the argument', async () => {
    const editor = make();
    const candidates = await editor.propose(context(), 2);
    const argument = async (fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (e) {
        if (InvalidArgumentError.isInstance(e)) return e.argument;
        throw e;
      }
      throw new Error('expected an InvalidArgumentError');
    };
    expect(await argument(() => editor.propose(context(), 0))).toBe('n');
    expect(await argument(() => editor.update(candidates, [1]))).toBe('advantages');
    expect(await argument(() => editor.update(candidates, [1, Number.NaN]))).toBe('advantages[1]');
    expect(await argument(() => editor.update([], []))).toBe('candidates');
    const foreign = { ...(candidates[0] as StepCandidate), info: {} };
    expect(await argument(() => editor.update([foreign], [1]))).toBe('candidates[0].info.stepEditor');
    const shop = createStepEditor({ vocabulary: { shopping: ['search', 'buy it'] } });
    editors.push(shop);
    expect(await argument(() => shop.update(candidates, [1, -1]))).toBe(
      'candidates[0].info.stepEditor.vocabularyHash',
    );
    const tampered = structuredClone(candidates[0] as StepCandidate);
    tampered.tokenIds = [999];
    expect(await argument(() => editor.score([tampered]))).toBe('candidates[0].tokenIds[0]');
    // "keep" needs a line under the cursor: not allowed when writing from scratch.
    tampered.tokenIds = [0];
    expect(await argument(() => editor.score([tampered]))).toBe('candidates[0].tokenIds[0]');
    tampered.tokenIds = (candidates[0] as StepCandidate).tokenIds.slice(0, -1);
    expect(await argument(() => editor.score([tampered]))).toBe('candidates[0].tokenIds');
    const noLogProbs = { ...(candidates[0] as StepCandidate), logProbs: [] };
    expect(await argument(() => editor.update([noLogProbs], [1]))).toBe('candidates[0].logProbs');
    expect(await argument(() => editor.nextStepDistribution(context(), ['fly to the moon']))).toBe(
      'prefix[0]',
    );
    expect(await argument(() => editor.nextStepDistribution(context(), ['keep']))).toBe('prefix[0]');
    const first = `insert: ${(vocabulary[HEAT] as string[])[0]}`;
    expect(await argument(() => editor.nextStepDistribution(context(), [first, END_OF_SKILL]))).toBe(
      'prefix',
    );
    const controller = new AbortController();
    controller.abort();
    await expect(editor.propose(context({ signal: controller.signal }), 1)).rejects.toThrow();
    const gone = make();
    gone.dispose();
    expect(await argument(() => gone.propose(context(), 1))).toBe('editor');
  });

  it('writes a skill for a family the vocabulary lacks from every phrase, without the prior', async () => {
    const editor = make();
    const task: Task = {
      id: 'x',
      family: 'unknown_family',
      split: 'train',
      prompt: 'Your task is to: dance',
    };
    const [c] = await editor.propose({ task, generation: 1, history: [], seed: 1 }, 1);
    expect(c?.skill.families).toEqual(['unknown_family']);
    expect(parseSkill(c?.text ?? '')).toEqual(c?.skill);
    const dist = await editor.nextStepDistribution({ task, generation: 1, history: [] });
    // Every phrase open, the end masked at position 0.
    expect(dist.filter((p) => p.probability > 0)).toHaveLength(editor.steps.length);
  });
});
