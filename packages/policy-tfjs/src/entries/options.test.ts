import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_CONFIG } from '../model/agent-config.js';
import {
  checkSkillReadingAgentOptions,
  checkTfjsTrainerOptions,
  SKILL_READING_AGENT_CONFIG_OPTIONS,
  SKILL_READING_AGENT_OPTIONS,
  TFJS_TRAINER_OPTIONS,
} from './options.js';

// This file imports the options entry alone (vitest runs each file in its own module graph): tfjs, which
// registers its engine on the global object when it loads, must not have loaded.
describe('@skillrl/policy-tfjs/options', () => {
  it('loads no tfjs', () => {
    expect((globalThis as { _tfengine?: unknown })._tfengine).toBeUndefined();
  });

  it('an unknown option, with the one meant, here and under config', () => {
    expect(checkSkillReadingAgentOptions({ hiddenSizeTypo: 8 })).toEqual([
      {
        path: '$.agent.options.hiddenSizeTypo',
        message: `unknown option of the skill-reading agent; expected one of ${SKILL_READING_AGENT_OPTIONS.join(', ')}`,
      },
    ]);
    expect(checkSkillReadingAgentOptions({ temprature: 0.5, config: { hiden: 16 } })).toEqual([
      {
        path: '$.agent.options.temprature',
        message: 'unknown option of the skill-reading agent; did you mean temperature?',
      },
      {
        path: '$.agent.options.config.hiden',
        message: 'unknown option of the skill-reading network config; did you mean hidden?',
      },
    ]);
    expect(checkTfjsTrainerOptions({ learningRateTypo: 0.1, miniBatch: 2 })).toEqual([
      {
        path: '$.internalize.trainer.options.learningRateTypo',
        message: `unknown option of the tfjs trainer; expected one of ${TFJS_TRAINER_OPTIONS.join(', ')}`,
      },
      {
        path: '$.internalize.trainer.options.miniBatch',
        message: 'unknown option of the tfjs trainer; did you mean miniBatches?',
      },
    ]);
  });

  it('wrong types, each by path', () => {
    expect(checkSkillReadingAgentOptions({ temperature: 0, greedy: 'yes', config: { dim: 2.5 } })).toEqual([
      { path: '$.agent.options.temperature', message: 'expected a number > 0, got 0' },
      { path: '$.agent.options.greedy', message: 'expected true or false, got "yes"' },
      { path: '$.agent.options.config.dim', message: 'expected an integer >= 1, got 2.5' },
    ]);
    expect(
      checkTfjsTrainerOptions({
        lr: '0.01',
        aggregation: 'seq-mean',
        epochs: 0,
        backend: 'gpu',
        dualClip: true,
        lrSchedule: { decay: 'step', updates: 0, minLrRatio: 2 },
      }),
    ).toEqual([
      { path: '$.internalize.trainer.options.lr', message: 'expected a number > 0, got "0.01"' },
      {
        path: '$.internalize.trainer.options.aggregation',
        message:
          'expected one of "token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm", "seq-mean-token-sum-norm-drgrpo", got "seq-mean"',
      },
      { path: '$.internalize.trainer.options.epochs', message: 'expected an integer >= 1, got 0' },
      {
        path: '$.internalize.trainer.options.backend',
        message: 'expected one of "tfjs-node-gpu", "tfjs-node", "wasm", "cpu", got "gpu"',
      },
      { path: '$.internalize.trainer.options.dualClip', message: 'expected a number or false, got true' },
      {
        path: '$.internalize.trainer.options.lrSchedule.decay',
        message: 'expected one of "cosine", "linear", "constant", got "step"',
      },
      {
        path: '$.internalize.trainer.options.lrSchedule.updates',
        message: 'expected an integer >= 1, got 0',
      },
      {
        path: '$.internalize.trainer.options.lrSchedule.minLrRatio',
        message: 'expected a number from 0 to 1, got 2',
      },
    ]);
  });

  it('a valid full set passes', () => {
    const config = { ...DEFAULT_AGENT_CONFIG, memoryActions: 0, synonyms: { move: 'put' } };
    expect(checkSkillReadingAgentOptions({ seed: 3, temperature: 0.5, greedy: true, config })).toEqual([]);
    expect(SKILL_READING_AGENT_CONFIG_OPTIONS).toEqual(Object.keys(config));
    const trainer = {
      loss: 'vanilla',
      kl: { kind: 'k3', coef: 0.01 },
      aggregation: 'seq-mean-token-mean',
      lr: 0.02,
      lrSchedule: { updates: 360, warmup: 18, decay: 'cosine', minLrRatio: 0.1 },
      clipLow: 0.2,
      clipHigh: 0.28,
      dualClip: 3,
      maxGradNorm: 1,
      weightDecay: { featureWeights: 0.2 },
      entropyCoef: 0,
      microBatchSize: 8,
      epochs: 1,
      miniBatches: 4,
      truncated: 'skip',
      backend: 'wasm',
      trainPrior: true,
      gradients: 'tfjs',
    };
    expect(checkTfjsTrainerOptions(trainer)).toEqual([]);
    expect(checkTfjsTrainerOptions({ dualClip: false })).toEqual([]);
    expect(checkTfjsTrainerOptions({ weightDecay: 0.01 })).toEqual([]);
    expect(TFJS_TRAINER_OPTIONS).toEqual([
      ...Object.keys(trainer).slice(0, 15),
      'backend',
      'reference',
      'trainPrior',
      'gradients',
    ]);
  });

  it('the factories throw a ValidationError for the same (checked where they are built)', async () => {
    const { createSkillReadingAgent, createTfjsTrainer, vocabularyFromTexts } = await import('../index.js');
    const vocabulary = vocabularyFromTexts(['go to the fridge']);
    const refused = (build: () => unknown) => {
      try {
        build();
      } catch (e) {
        return ValidationError.isInstance(e) ? e.issues.map((i) => i.path) : e;
      }
      return 'built';
    };
    expect(refused(() => createSkillReadingAgent({ vocabulary, hiddenSizeTypo: 8 } as never))).toEqual([
      'options.hiddenSizeTypo',
    ]);
    const agent = createSkillReadingAgent({ vocabulary });
    expect(refused(() => createTfjsTrainer(agent, { learningRateTypo: 0.1 } as never))).toEqual([
      'options.learningRateTypo',
    ]);
  });
});
