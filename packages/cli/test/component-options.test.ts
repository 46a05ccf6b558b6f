import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, internalizeConfig, jsonResult, startCli, tempDir, writeConfig } from './support.js';

// issue 36: each built-in component's options are checked by its own package, so a misspelt option is named
// by `skillrl check` with its path (and the option meant), and `skillrl run` refuses the same before anything
// starts, where before both took it silently.

const cli = (args: string[]) => finish(startCli(args));

/** The skill-reading agent, its tfjs trainer and the household adapter, each with a typo in its options. */
const tfjsTypos = internalizeConfig(
  {
    name: 'tfjs-typos',
    adapter: { name: 'household', options: { maxStep: 30 } },
    agent: { name: 'skill-reading', options: { hiddenSizeTypo: 8 } },
  },
  { trainer: { name: 'tfjs', options: { learningRateTypo: 0.1 } } },
);

/** The openai agent with a typo, beside the external trainer given an option it does not take. */
const openaiTypos = internalizeConfig(
  {
    name: 'openai-typos',
    agent: {
      name: 'openai',
      options: { model: 'fake-model', baseURL: 'http://127.0.0.1:9/v1', temprature: 0.7 },
    },
  },
  { trainer: { name: 'external', options: { lr: 0.1 } } },
);

const expected = {
  tfjs: [
    ['$.adapter.options.maxStep', 'unknown option of the household adapter; did you mean maxSteps?'],
    ['$.agent.options.hiddenSizeTypo', 'unknown option of the skill-reading agent; expected one of'],
    ['$.internalize.trainer.options.learningRateTypo', 'unknown option of the tfjs trainer; expected one of'],
  ],
  openai: [
    ['$.agent.options.temprature', 'unknown option of the openai agent; did you mean temperature?'],
    ['$.internalize.trainer.options.lr', 'unknown option of the external trainer; it takes no options'],
  ],
};

describe("built-in components' options, checked by their packages", () => {
  for (const [what, config] of [
    ['tfjs', tfjsTypos],
    ['openai', openaiTypos],
  ] as const) {
    it(`${what}: check names each typo by its path; run refuses the same and starts nothing`, async () => {
      const dir = tempDir(`component-options-${what}`);
      const file = writeConfig(dir, config);
      const check = await cli(['check', file]);
      expect(check.code, check.err).toBe(1);
      for (const [path, message] of expected[what]) expect(check.err).toContain(`${path}: ${message}`);

      // --json: each component's error lists its problems by path.
      const json = jsonResult(await cli(['check', file, '--json']));
      expect(json.ok).toBe(false);
      const paths = [
        ...(json.error?.issues ?? []),
        ...json.components.flatMap((c: { error?: { issues?: unknown[] } }) => c.error?.issues ?? []),
      ].map((i: { path: string }) => i.path);
      for (const [path] of expected[what]) expect(paths).toContain(path);

      const run = await cli(['run', file, '--run-dir', join(dir, 'run')]);
      expect(run.code).toBe(1);
      for (const [path] of expected[what]) expect(run.err).toContain(path);
      expect(existsSync(join(dir, 'run'))).toBe(false);
    }, 60_000);
  }

  it('the step editor too; the options the shipped configs use pass', async () => {
    const dir = tempDir('component-options-valid');
    const evolve = {
      method: 'evolve',
      seed: 1,
      name: 'step-editor-typo',
      adapter: 'household',
      tasks: { split: 'train', limit: 2 },
      agent: 'skill-reading',
      evolve: {
        generations: 1,
        candidates: 2,
        episodes: 1,
        generator: { name: 'step-editor', options: { keepPrio: 1 } },
      },
    };
    const typo = await cli(['check', writeConfig(dir, evolve, 'typo.yaml')]);
    expect(typo.code).toBe(1);
    expect(typo.err).toContain(
      '$.evolve.generator.options.keepPrio: unknown option of the step editor; did you mean keepPrior?',
    );

    (evolve.evolve.generator.options as Record<string, unknown>) = { keepPrior: 1, hiddenSize: 16 };
    const good = await cli(['check', writeConfig(dir, evolve, 'good.yaml')]);
    expect(good.code, good.err).toBe(0);
    const valid = internalizeConfig(
      {
        name: 'valid-options',
        adapter: { name: 'household', options: { maxSteps: 30, placeSpelling: 'both' } },
        agent: { name: 'skill-reading', options: { temperature: 1, config: { hidden: 16 } } },
      },
      {
        trainer: { name: 'tfjs', options: { lr: 0.02, miniBatches: 4, aggregation: 'seq-mean-token-mean' } },
      },
    );
    const check = await cli(['check', writeConfig(dir, valid, 'valid.yaml')]);
    expect(check.code, check.err).toBe(0);
  }, 60_000);
});
