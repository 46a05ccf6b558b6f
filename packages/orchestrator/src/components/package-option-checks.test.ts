import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { tempDir, writeConfig } from '../../test/support.js';
import { checkConfigFile } from './check-components.js';
import { resolveComponent } from './resolve-component.js';

// The Tinker components' options are @skillrl/trainer-tinker's to check (`checkTinkerAgentOptions`, …):
// `skillrl check` and a run import that check from the installed package; the orchestrator keeps no list.

function tinkerProject() {
  const dir = tempDir('tinker-options');
  mkdirSync(join(dir, 'tok'));
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) writeFileSync(join(dir, 'tok', f), '{}');
  return dir;
}

const badAgent = {
  name: 'tinker',
  options: {
    baseModel: 'Qwen/Qwen3-4B-Instruct-2507',
    tokenizer: './tok',
    loraRank: 0,
    temperature: -1,
    lora: 8,
  },
};

describe("the Tinker components' options, checked by the package", () => {
  it('skillrl check lists every problem of the agent and the trainer in one pass, by path', async () => {
    const dir = tinkerProject();
    const file = writeConfig(dir, {
      method: 'internalize',
      seed: 1,
      adapter: 'household',
      tasks: { split: 'train', limit: 4 },
      agent: badAgent,
      internalize: {
        trainer: { name: 'tinker', options: { loss: 'cross_entropy', learningRate: 0, chunkSize: 1.5 } },
      },
    });
    const result = await checkConfigFile(file);
    const issues = result.components.flatMap((c) =>
      c.error && ValidationError.isInstance(c.error) ? c.error.issues : [],
    );
    expect(issues.map((i) => i.path).sort()).toEqual(
      [
        '$.agent.options.lora',
        '$.agent.options.loraRank',
        '$.agent.options.temperature',
        '$.internalize.trainer.options.chunkSize',
        '$.internalize.trainer.options.learningRate',
        '$.internalize.trainer.options.loss',
      ].sort(),
    );
    expect(issues.find((i) => i.path.endsWith('.loss'))?.message).toContain(
      'importance_sampling, ppo, cispo, dro',
    );
    expect(issues.find((i) => i.path.endsWith('.lora'))?.message).toContain('loraRank');
  });

  it('a trained Tinker agent samples on-policy: check refuses temperature 0.7 with tinker, not with external', async () => {
    const dir = tinkerProject();
    const config = (trainer: string) => ({
      method: 'internalize',
      seed: 1,
      adapter: 'household',
      tasks: { split: 'train', limit: 4 },
      agent: {
        name: 'tinker',
        options: { baseModel: 'Qwen/Qwen3-4B-Instruct-2507', tokenizer: './tok', temperature: 0.7 },
      },
      internalize: { trainer },
    });
    const agentIssues = async (trainer: string) => {
      const result = await checkConfigFile(writeConfig(dir, config(trainer), `${trainer}.yaml`));
      const agent = result.components.find((c) => c.role === 'agent');
      return agent?.error && ValidationError.isInstance(agent.error) ? agent.error.issues : [];
    };
    const trained = await agentIssues('tinker');
    expect(trained.map((i) => i.path)).toEqual(['$.agent.options.temperature']);
    expect(trained[0]?.message).toMatch(/importance|on-policy/i);
    // Rows for training elsewhere: the agent only samples, any temperature goes.
    expect(await agentIssues('external')).toEqual([]);
  });

  it('a run refuses the same options before the component is built, every problem at once', async () => {
    const dir = tinkerProject();
    const configPath = join(dir, 'config.yaml');
    const error = await resolveComponent('agent', badAgent, { seed: 1, configPath }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).issues.map((i) => i.path).sort()).toEqual(
      ['$.agent.options.lora', '$.agent.options.loraRank', '$.agent.options.temperature'].sort(),
    );
    const missing = await resolveComponent(
      'agent',
      { name: 'tinker', options: {} },
      { seed: 1, configPath },
    ).catch((e: unknown) => e);
    expect((missing as ValidationError).issues.map((i) => i.path)).toEqual([
      '$.agent.options.baseModel',
      '$.agent.options.tokenizer',
    ]);
  });

  it('the trained LLM editor: its flat trainer options, the base model and tokenizer required', async () => {
    const dir = tinkerProject();
    const configPath = join(dir, 'config.yaml');
    const spec = {
      name: 'llm-editor',
      options: { trainer: { name: 'tinker', options: { loraRank: 16, loss: 'dro', lerningRate: 1e-5 } } },
    };
    const error = await resolveComponent('generator', spec, { seed: 1, configPath }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).issues.map((i) => i.path).sort()).toEqual(
      [
        '$.evolve.generator.options.trainer.options.baseModel',
        '$.evolve.generator.options.trainer.options.lerningRate',
        '$.evolve.generator.options.trainer.options.tokenizer',
      ].sort(),
    );
  });
});
