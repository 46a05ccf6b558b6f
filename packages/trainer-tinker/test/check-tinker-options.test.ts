import { describe, expect, it } from 'vitest';
import {
  checkTinkerAgentOptions,
  checkTinkerEditorOptions,
  checkTinkerTrainerOptions,
  resolveTrainerOptions,
  TINKER_EDITOR_CONFIG_KEYS,
  TINKER_RL_LOSSES,
  TINKER_TRAINER_OPTION_KEYS,
} from '../src/index.js';

const paths = (issues: { path: string }[]) => issues.map((i) => i.path).sort();
const agent = { baseModel: 'Qwen/Qwen3-4B-Instruct-2507', tokenizer: './tokenizer' };

describe('checkTinkerAgentOptions', () => {
  it('needs the base model and the tokenizer, and says where the tokenizer comes from', () => {
    const issues = checkTinkerAgentOptions({}, '$.agent.options');
    expect(paths(issues)).toEqual(['$.agent.options.baseModel', '$.agent.options.tokenizer']);
    expect(issues.find((i) => i.path.endsWith('tokenizer'))?.message).toContain(
      'tokenizer.json and tokenizer_config.json',
    );
    expect(checkTinkerAgentOptions(agent)).toEqual([]);
  });

  it('lists every problem at once: unknown names, ranges, a variable name, a sampler path', () => {
    const issues = checkTinkerAgentOptions(
      {
        ...agent,
        loraRank: 0,
        temperature: -1,
        topP: 1.5,
        seed: -1,
        apiKeyEnv: 'not a name',
        modelPath: 'https://x',
        lora: 8,
      },
      '$.agent.options',
    );
    expect(paths(issues)).toEqual(
      [
        '$.agent.options.apiKeyEnv',
        '$.agent.options.lora',
        '$.agent.options.loraRank',
        '$.agent.options.modelPath',
        '$.agent.options.seed',
        '$.agent.options.temperature',
        '$.agent.options.topP',
      ].sort(),
    );
    // Options only code can pass are not config options.
    expect(paths(checkTinkerAgentOptions({ ...agent, fetch: 1, client: 1 }, 'o'))).toEqual([
      'o.client',
      'o.fetch',
    ]);
  });
});

describe('checkTinkerTrainerOptions', () => {
  it('accepts every option and loss the trainer reads (the same lists resolveTrainerOptions uses)', () => {
    for (const loss of TINKER_RL_LOSSES) {
      const every = Object.fromEntries(TINKER_TRAINER_OPTION_KEYS.map((key) => [key, undefined]));
      expect(checkTinkerTrainerOptions({ ...every, loss })).toEqual([]);
      expect(() => resolveTrainerOptions({ loss })).not.toThrow();
    }
  });
  it('names a loss Tinker does not compute for RL, and numbers out of range', () => {
    const issues = checkTinkerTrainerOptions(
      { loss: 'cross_entropy', learningRate: 0, chunkSize: 1.5 },
      '$.internalize.trainer.options',
    );
    expect(paths(issues)).toEqual([
      '$.internalize.trainer.options.chunkSize',
      '$.internalize.trainer.options.learningRate',
      '$.internalize.trainer.options.loss',
    ]);
    expect(issues.find((i) => i.path.endsWith('loss'))?.message).toContain(
      'importance_sampling, ppo, cispo, dro',
    );
  });
});

describe('loss options and advantage shaping', () => {
  it('refuses a loss option the loss does not read (skyrl-tx refuses them too), and shaping options out of range', () => {
    const issues = checkTinkerTrainerOptions(
      {
        loss: 'importance_sampling',
        clipLowThreshold: 0.8,
        klPenaltyCoef: -1,
        normalizePerTrajectory: 'yes',
      },
      't',
    );
    expect(paths(issues)).toEqual(['t.clipLowThreshold', 't.klPenaltyCoef', 't.normalizePerTrajectory']);
    expect(issues.find((i) => i.path === 't.clipLowThreshold')?.message).toContain('ppo and cispo');
    expect(paths(checkTinkerTrainerOptions({ loss: 'ppo', beta: 0.1 }, 't'))).toEqual(['t.beta']);
    expect(checkTinkerTrainerOptions({ loss: 'dro', beta: 0.1, klPenaltyCoef: 0.05 })).toEqual([]);
    expect(() => resolveTrainerOptions({ beta: 0.1 })).toThrow(/options\.beta.*dro loss only/);
    expect(() => resolveTrainerOptions({ loss: 'cispo', clipHighThreshold: 1.3 })).not.toThrow();
    expect(() => resolveTrainerOptions({ klPenaltyCoef: -0.1 })).toThrow(/klPenaltyCoef/);
    expect(resolveTrainerOptions({})).toMatchObject({ normalizePerTrajectory: false, klPenaltyCoef: 0 });
    expect(
      paths(checkTinkerEditorOptions({ ...agent, invalidReplyAdvantage: 0.5, repairPenalty: -1 }, 'e')),
    ).toEqual(['e.invalidReplyAdvantage', 'e.repairPenalty']);
  });
});

describe('checkTinkerEditorOptions', () => {
  it('takes the flat options createTinkerEditorParts splits (policy, sampling, trainer)', () => {
    expect(checkTinkerEditorOptions({ ...agent, maxTokens: 512, loss: 'ppo', learningRate: 1e-5 })).toEqual(
      [],
    );
    expect(paths(checkTinkerEditorOptions({ loraRank: 16, lerningRate: 1e-5 }, 'e'))).toEqual([
      'e.baseModel',
      'e.lerningRate',
      'e.tokenizer',
    ]);
    // Every key the check accepts is one the parts builder routes somewhere (trainer, model or policy).
    expect(TINKER_EDITOR_CONFIG_KEYS).toEqual(
      expect.arrayContaining([...TINKER_TRAINER_OPTION_KEYS, 'topP']),
    );
  });
});
