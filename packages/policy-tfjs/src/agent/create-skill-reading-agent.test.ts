import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentContext, Task } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { FEATURE_SCALE } from '../model/decision-record.js';
import { createVocabulary } from '../text/vocabulary.js';
import { loadSkillReadingAgent } from './checkpoint.js';
import { createSkillReadingAgent } from './create-skill-reading-agent.js';
import { expandTemplates } from './expand-templates.js';

const task: Task = {
  id: 't1',
  family: 'pick_heat_then_place_in_recep',
  split: 'train',
  prompt: 'Your task is to: put a hot egg in countertop.',
};
const skill = {
  name: 'heat',
  description: 'heat things',
  body: '1. Find the object and take it.\n2. Go to the microwave and heat the object with it.\n',
};
const context = (over: Partial<AgentContext> = {}): AgentContext => ({
  task,
  condition: 1,
  skill,
  observation: 'You arrive at countertop 1. On the countertop 1, you see a egg 1, and a mug 2.',
  history: [],
  stepIndex: 0,
  admissibleActions: [
    'go to fridge 1',
    'take egg 1 from countertop 1',
    'take mug 2 from countertop 1',
    'look',
  ],
  seed: 42,
  ...over,
});
const vocabulary = createVocabulary([
  'go',
  'to',
  'fridge',
  'take',
  'egg',
  'mug',
  'from',
  'countertop',
  'look',
]);

describe('createSkillReadingAgent', () => {
  it("an episode's memories are the memory after each prefix of its actions, within and past its reach", () => {
    const actions = Array.from({ length: 9 }, (_, i) =>
      i % 2 ? 'go to fridge 1' : `take egg ${i} from countertop 1`,
    );
    for (const memoryActions of [0, 3, 50]) {
      const agent = createSkillReadingAgent({ vocabulary, seed: 1, config: { memoryActions } });
      const all = agent.episodeMemories(actions);
      expect(all).toHaveLength(actions.length);
      for (const [i, memory] of all.entries()) expect(memory).toEqual(agent.memoryIds(actions.slice(0, i)));
    }
  });

  it('prefers the action the skill names, only when the skill is given', async () => {
    const agent = createSkillReadingAgent({ vocabulary, seed: 1 });
    const withSkill = agent.distribution(context()).logProbs;
    const without = agent.distribution(context({ condition: 0, skill: undefined })).logProbs;
    // Untrained and without the skill: uniform over the 4 candidates.
    for (const lp of without) expect(lp).toBeCloseTo(-Math.log(4), 9);
    expect(Math.exp(withSkill[1] as number)).toBeGreaterThan(0.9);
    const greedy = agent.withSampling({ greedy: true });
    const chosen = await greedy.act(context());
    expect(chosen.action).toBe('take egg 1 from countertop 1');
    expect(chosen.logProb).toBeCloseTo(withSkill[1] as number, 12);
    expect(JSON.parse(JSON.stringify(chosen.info))).toEqual(chosen.info);
  });

  it('samples reproducibly from the context seed', async () => {
    const agent = createSkillReadingAgent({ vocabulary, seed: 1, temperature: 3 });
    const a = await agent.act(context({ seed: 7 }));
    const b = await agent.act(context({ seed: 7 }));
    expect(b.action).toBe(a.action);
    const actions = new Set<string>();
    for (let s = 0; s < 40; s++) actions.add((await agent.act(context({ seed: s }))).action);
    // At temperature 3 the skill's favourite no longer takes every draw.
    expect(actions.size).toBeGreaterThan(1);
  });

  it('weighs "share of its words in earlier actions" only with earlierActionsFeature on', () => {
    const after = context({
      condition: 0,
      skill: undefined,
      history: [
        {
          index: 0,
          observation: 'You are in the middle of a room.',
          action: 'go to countertop 1',
          reward: 0,
          done: false,
        },
      ],
    });
    const IN_EARLIER = 5;
    // "take egg 1 from countertop 1": content words take, egg, countertop; countertop was in an earlier action.
    const on = createSkillReadingAgent({ vocabulary, seed: 1, config: { earlierActionsFeature: true } });
    expect(on.distribution(after).record.feats[1]?.[IN_EARLIER]).toBeCloseTo(FEATURE_SCALE / 3, 12);
    const off = createSkillReadingAgent({ vocabulary, seed: 1 });
    expect(off.config.earlierActionsFeature).toBe(false);
    for (const row of off.distribution(after).record.feats) expect(row[IN_EARLIER]).toBe(0);
    // So its weight moves no logit: a large one leaves the off agent's distribution where it was.
    const weighted = { ...off.parameters, featureWeights: off.parameters.featureWeights.slice() };
    weighted.featureWeights[IN_EARLIER] = -3;
    const before = off.distribution(after).logProbs;
    off.setParameters(weighted);
    expect([...off.distribution(after).logProbs]).toEqual([...before]);
    on.setParameters(weighted);
    expect(Math.exp(on.distribution(after).logProbs[1] as number)).toBeLessThan(0.1);
    expect(() =>
      createSkillReadingAgent({ vocabulary, config: { earlierActionsFeature: 1 as never } }),
    ).toThrow(/options\.config\.earlierActionsFeature/);
  });

  it('loads a checkpoint saved before earlierActionsFeature existed with the feature on, as it was trained', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skillrl-earlier-actions-'));
    try {
      await createSkillReadingAgent({ vocabulary, seed: 1 }).save(dir);
      const manifest = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
      expect(manifest.config.earlierActionsFeature).toBe(false);
      expect((await loadSkillReadingAgent(dir)).config.earlierActionsFeature).toBe(false);
      delete manifest.config.earlierActionsFeature;
      await writeFile(join(dir, 'config.json'), JSON.stringify(manifest));
      expect((await loadSkillReadingAgent(dir)).config.earlierActionsFeature).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the missing admissible list', async () => {
    const agent = createSkillReadingAgent({ vocabulary });
    await expect(agent.act(context({ admissibleActions: [] }))).rejects.toThrow(/context.admissibleActions/);
    expect(() => createSkillReadingAgent({ vocabulary, temperature: 0 })).toThrow(/options.temperature/);
  });
});

describe('expandTemplates', () => {
  it("fills WebShop's search template from the goal's words", () => {
    const shopTask: Task = {
      id: 's',
      family: 'shopping',
      split: 'train',
      prompt: 'i need a high speed usb c wall charger with color: white, and price lower than 40.00 dollars',
    };
    expect(expandTemplates(['search[<keywords>]', 'click[back to search]'], shopTask)).toEqual([
      'search[high speed usb c wall charger]',
      'search[high speed usb]',
      'click[back to search]',
    ]);
  });
});
