import { formatSkill, type Trajectory, validateSkill } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { generateCatalogue } from '../catalogue/generate-catalogue.js';
import type { ShopEnvironment } from '../env/shop-environment.js';
import { expertActions } from '../expert/expert-actions.js';
import shopAdapter from '../index.js';
import type { ShopGoal } from '../product/shop-product.js';
import { splitBoundaries, splitGoalIndices } from './goal-splits.js';
import { createShopAdapter } from './shop-adapter.js';

const adapter = createShopAdapter({ products: 400 });

async function play(env: ShopEnvironment, actions: string[]): Promise<Trajectory['steps']> {
  const steps: Trajectory['steps'] = [];
  let observation = await env.reset();
  for (const [index, action] of actions.entries()) {
    const result = await env.step(action);
    // As the episode runner records a step: the environment's info under `info.env`.
    steps.push({
      index,
      observation,
      action,
      reward: result.reward,
      done: result.done,
      ...(result.info ? { info: { env: result.info } } : {}),
    });
    observation = result.observation;
    if (result.done) break;
  }
  return steps;
}

function trajectory(taskId: string, steps: Trajectory['steps']): Trajectory {
  const reward = steps.at(-1)?.reward ?? 0;
  return {
    id: 't',
    taskId,
    family: 'shopping',
    condition: 0,
    steps,
    reward,
    verdict: { score: 0, passed: false },
  };
}

describe('shop adapter', () => {
  it('is the default export, named shop, in the shopping family', () => {
    expect(shopAdapter.name).toBe('shop');
    expect(shopAdapter.families).toEqual(['shopping']);
    expect(shopAdapter.splits).toEqual(['train', 'eval', 'test']);
  });

  it("cuts WebShop's splits from the seeded goal order without overlap", () => {
    const cut = (split: string) => splitGoalIndices(6000, split, 3);
    const all = [...cut('test'), ...cut('eval'), ...cut('train')];
    expect(cut('test')).toHaveLength(500);
    expect(cut('eval')).toHaveLength(1000);
    expect(new Set(all).size).toBe(6000);
    expect(splitGoalIndices(6000, 'test', 4)).not.toEqual(cut('test'));
    expect(() => splitGoalIndices(10, 'valid_seen', 0)).toThrow(/split/);
    // Under 5,000 goals the cuts shrink to 10 % and 20 %: 1,200 goals → 120 test, 240 eval, 840 train.
    expect(splitBoundaries(1200)).toEqual({ test: [0, 120], eval: [120, 360], train: [360, 1200] });
    expect(splitBoundaries(12087)).toEqual({ test: [0, 500], eval: [500, 1500], train: [1500, 12087] });
    // A loaded catalogue keeps its (WebShop) order: test is goals 0–499.
    expect(splitGoalIndices(6000, 'test', null)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it('loads tasks deterministically by seed, with the instruction as prompt', async () => {
    const a = await adapter.load({ split: 'test', limit: 5, seed: 2 });
    const b = await adapter.load({ split: 'test', limit: 5, seed: 2 });
    expect(a).toEqual(b);
    expect(a).toHaveLength(5);
    const task = a[0];
    const goal = task?.metadata?.goal as unknown as ShopGoal;
    expect(task?.family).toBe('shopping');
    expect(task?.prompt).toBe(goal.instruction_text);
    expect(task?.answer).toEqual({ asin: goal.asin, options: goal.goal_options });
    expect(await adapter.load({ split: 'test', limit: 5, seed: 3 })).not.toEqual(a);
  });

  it('verifies a purchase: the expert passes with score 1, a wrong purchase scores its reward', async () => {
    const [task] = await adapter.load({ split: 'eval', limit: 1, seed: 4 });
    if (!task) throw new Error('no task');
    const catalogue = generateCatalogue({ seed: 4, products: 400 });
    const goal = task.metadata?.goal as unknown as ShopGoal;
    const env = (await adapter.createEnvironment(task)) as ShopEnvironment;
    const good = await play(env, expertActions(goal, catalogue));
    const verdict = await adapter.verifier(task).verify(task, trajectory(task.id, good));
    expect(verdict).toMatchObject({ score: 1, passed: true });
    expect(verdict.details).toMatchObject({ r_type: 1, purchase: { asin: goal.asin } });

    // Same product, no options chosen: (attributes + price) / (attributes + options + 1) < 1.
    const plain = expertActions(goal, catalogue).filter(
      (a) => !Object.values(goal.goal_options).some((v) => a === `click[${v}]`),
    );
    const partial = await adapter.verifier(task).verify(task, trajectory(task.id, await play(env, plain)));
    const n = goal.attributes.length + Object.keys(goal.goal_options).length + 1;
    expect(partial.score).toBeCloseTo((goal.attributes.length + 1) / n, 12);
    expect(partial.passed).toBe(false);

    const none = await adapter
      .verifier(task)
      .verify(task, trajectory(task.id, await play(env, ['search[x]'])));
    expect(none).toMatchObject({ score: 0, passed: false });
  });

  it('ships a valid starting SKILL.md and a step vocabulary', async () => {
    const skills = (await adapter.skills?.()) ?? [];
    expect(skills).toHaveLength(1);
    const [skill] = skills;
    if (!skill) throw new Error('no skill');
    expect(validateSkill(skill)).toMatchObject({ ok: true, problems: [] });
    expect(formatSkill(skill)).toMatch(/^---\nname: webshop-buy-matching-product\n/);
    expect(skill.families).toEqual(['shopping']);
    const vocabulary = adapter.stepVocabulary?.() ?? {};
    expect(vocabulary.shopping).toEqual(expect.arrayContaining(['search with the key attributes', 'buy it']));
  });

  it('names the bad argument', () => {
    expect(() => adapter.load({ split: 'dev' })).toThrow(/split/);
    expect(() => adapter.load({ split: 'test', limit: -1 })).toThrow(/limit/);
    expect(() =>
      adapter.createEnvironment({ id: 'x', family: 'shopping', split: 'test', prompt: '' }),
    ).toThrow(/catalogueSeed/);
  });
});
