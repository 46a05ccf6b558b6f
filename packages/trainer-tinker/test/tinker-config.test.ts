import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingFieldError } from '@skillrl/core';
import { TINY_CHAT_MODEL, tinyChatDir } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkTinkerAgentOptions,
  checkTinkerEditorOptions,
  checkTinkerTokenizerFolder,
  createTinkerAgentFromConfig,
  createTinkerEditorTraining,
  createTinkerTrainerFromConfig,
  resolveTinkerPaths,
} from '../src/index.js';
import { closeAfter, fake } from './support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A config file in a fresh folder, with the tiny-chat tokenizer in `tok/` beside it. */
function project(): { config: string; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'tinker-config-'));
  dirs.push(folder);
  cpSync(tinyChatDir(), join(folder, 'tok'), { recursive: true });
  return { config: join(folder, 'run.yaml'), folder };
}

describe('resolveTinkerPaths', () => {
  it("reads a relative tokenizer folder from the config's folder; absolute ones and others stay", () => {
    expect(resolveTinkerPaths({ tokenizer: 'tok', loraRank: 4 }, '/work/cfg/run.yaml')).toEqual({
      tokenizer: '/work/cfg/tok',
      loraRank: 4,
    });
    expect(resolveTinkerPaths({ tokenizer: '/abs/tok' }, '/work/cfg/run.yaml')).toEqual({
      tokenizer: '/abs/tok',
    });
    expect(resolveTinkerPaths({ baseModel: 'm' }, '/work/cfg/run.yaml')).toEqual({ baseModel: 'm' });
  });
});

describe('checkTinkerTokenizerFolder', () => {
  it('a folder without the two files: one issue at <path>.tokenizer naming the folder and the fix', () => {
    const { config, folder } = project();
    expect(checkTinkerTokenizerFolder({ tokenizer: 'missing' }, config, '$.agent.options')).toEqual([
      {
        path: '$.agent.options.tokenizer',
        message: `${join(folder, 'missing')} has no tokenizer.json or tokenizer_config.json (the model's tokenizer files, e.g. \`huggingface-cli download <model> tokenizer.json tokenizer_config.json --local-dir <folder>\`)`,
      },
    ]);
    expect(checkTinkerTokenizerFolder({ tokenizer: 'tok' }, config, '$.agent.options')).toEqual([]);
    expect(checkTinkerTokenizerFolder({}, config, '$.agent.options')).toEqual([]);
  });

  it("the agent's and the editor's checks look at the folder first when given the config file", () => {
    const { config } = project();
    const options = { baseModel: 'm', tokenizer: 'missing', lora: 8 };
    expect(checkTinkerAgentOptions(options, '$.agent.options', {}, config).map((i) => i.path)).toEqual([
      '$.agent.options.tokenizer',
      '$.agent.options.lora',
    ]);
    expect(checkTinkerAgentOptions(options, '$.agent.options').map((i) => i.path)).toEqual([
      '$.agent.options.lora',
    ]);
    expect(checkTinkerEditorOptions(options, '$.t', undefined, config).map((i) => i.path)).toEqual([
      '$.t.tokenizer',
      '$.t.lora',
    ]);
  });
});

describe('the factories a config calls', () => {
  it("the agent: baseModel and tokenizer required; the tokenizer read from the config's folder", async () => {
    const { config, folder } = project();
    expect(() => createTinkerAgentFromConfig({ tokenizer: 'tok' }, { seed: 1, configPath: config })).toThrow(
      expect.objectContaining({ component: 'agent.options', field: 'baseModel' }),
    );
    let thrown: unknown;
    try {
      createTinkerAgentFromConfig({ baseModel: TINY_CHAT_MODEL }, { seed: 1, configPath: config });
    } catch (error) {
      thrown = error;
    }
    expect(MissingFieldError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ field: 'tokenizer' });
    const server = await fake();
    const agent = closeAfter(
      createTinkerAgentFromConfig(
        { baseModel: TINY_CHAT_MODEL, tokenizer: 'tok', baseURL: server.url },
        { seed: 1, configPath: config },
      ),
    );
    expect(agent.policy.tokenizer.source).toBe(join(folder, 'tok'));
  });

  it('the trainer needs the agent it trains', () => {
    expect(() => createTinkerTrainerFromConfig({}, {})).toThrow(
      expect.objectContaining({ component: 'tinker trainer', field: 'agent' }),
    );
  });

  it("the editor's training: the tokenizer read from the config's folder, a chat model and train()", async () => {
    const { config, folder } = project();
    const server = await fake();
    const training = createTinkerEditorTraining({
      seed: 2,
      options: { baseModel: TINY_CHAT_MODEL, tokenizer: 'tok', baseURL: server.url, learningRate: 0.1 },
      configPath: config,
    });
    expect(training.policy.tokenizer.source).toBe(join(folder, 'tok'));
    expect(typeof training.model.complete).toBe('function');
    expect(typeof training.train).toBe('function');
  });
});
