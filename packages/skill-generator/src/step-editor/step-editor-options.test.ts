import { InvalidArgumentError, ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createStepEditor } from './create-step-editor.js';
import { resolveStepEditorOptions, type StepEditorOptions } from './step-editor-options.js';

const vocabulary = { pick: ['take the object', 'put the object in the target receptacle'] };

function argumentOf(options: unknown): string {
  try {
    createStepEditor(options as StepEditorOptions);
  } catch (e) {
    if (InvalidArgumentError.isInstance(e)) return e.argument;
    // The option check the factory runs first names the option by its path.
    if (ValidationError.isInstance(e)) return e.issues[0]?.path as string;
    throw e;
  }
  throw new Error('expected an InvalidArgumentError or a ValidationError');
}

describe('step editor options', () => {
  it('fills the documented defaults', () => {
    expect(resolveStepEditorOptions({})).toEqual({
      seed: 0,
      maxSteps: 12,
      minSteps: 1,
      hiddenSize: 64,
      temperature: 1,
      orderPrior: 2,
      keepPrior: 4,
      lineBuckets: 32,
      base: 'best',
      evidencePrior: 2,
      restrictToFamily: true,
      allowRepeats: false,
      goalBuckets: 64,
      failureBuckets: 32,
      historyWindow: 3,
      learningRate: 0.01,
      loss: 'vanilla',
      clipLow: 0.2,
      clipHigh: 0.2,
      aggregation: 'seq-mean-token-mean',
      kl: { kind: 'k3', coef: 0.01 },
      entropyCoef: 0,
      maxGradNorm: 1,
      epochs: 1,
      name: 'step-editor',
    });
    expect(resolveStepEditorOptions({ clipLow: 0.1, kl: false }).clipHigh).toBe(0.1);
    expect(resolveStepEditorOptions({ kl: false }).kl).toBe(false);
  });

  it.each([
    [{ vocabulary: undefined }, 'options.vocabulary'],
    [{ vocabulary: {} }, 'options.vocabulary'],
    [{ vocabulary: { pick: [] } }, 'options.vocabulary.pick'],
    [{ vocabulary: { pick: ['ok', 'two\nlines'] } }, 'options.vocabulary.pick[1]'],
    [{ vocabulary: { pick: ['  '] } }, 'options.vocabulary.pick[0]'],
    [{ vocabulary, maxSteps: 0 }, 'options.maxSteps'],
    [{ vocabulary, maxSteps: 2.5 }, 'options.maxSteps'],
    [{ vocabulary, minSteps: 13 }, 'options.minSteps'],
    [{ vocabulary, minSteps: -1 }, 'options.minSteps'],
    [{ vocabulary, hiddenSize: 0 }, 'options.hiddenSize'],
    [{ vocabulary, temperature: 0 }, 'options.temperature'],
    [{ vocabulary, temperature: Number.POSITIVE_INFINITY }, 'options.temperature'],
    [{ vocabulary, orderPrior: -1 }, 'options.orderPrior'],
    [{ vocabulary, keepPrior: -0.5 }, 'options.keepPrior'],
    [{ vocabulary, lineBuckets: 0 }, 'options.lineBuckets'],
    [{ vocabulary, base: 'latest' }, 'options.base'],
    [{ vocabulary, evidencePrior: Number.NaN }, 'options.evidencePrior'],
    [{ vocabulary, restrictToFamily: 'yes' }, 'options.restrictToFamily'],
    [{ vocabulary, allowRepeats: 1 }, 'options.allowRepeats'],
    [{ vocabulary, goalBuckets: 0 }, 'options.goalBuckets'],
    [{ vocabulary, failureBuckets: -2 }, 'options.failureBuckets'],
    [{ vocabulary, historyWindow: 0 }, 'options.historyWindow'],
    [{ vocabulary, learningRate: 0 }, 'options.learningRate'],
    [{ vocabulary, loss: 'ppo-but-not-registered' }, 'options.loss'],
    [{ vocabulary, clipLow: 1 }, 'options.clipLow'],
    [{ vocabulary, clipHigh: 0 }, 'options.clipHigh'],
    [{ vocabulary, aggregation: 'sum-of-everything' }, 'options.aggregation'],
    [{ vocabulary, kl: { kind: 'k9', coef: 0.1 } }, 'options.kl.kind'],
    [{ vocabulary, kl: { kind: 'k3', coef: -0.1 } }, 'options.kl.coef'],
    [{ vocabulary, entropyCoef: -1 }, 'options.entropyCoef'],
    [{ vocabulary, maxGradNorm: 0 }, 'options.maxGradNorm'],
    [{ vocabulary, epochs: 0 }, 'options.epochs'],
    [{ vocabulary, seed: 1.5 }, 'options.seed'],
    [{ vocabulary, name: '' }, 'options.name'],
    [null, 'options'],
  ])('rejects %j naming %s', (options, argument) => {
    expect(argumentOf(options)).toBe(argument);
  });

  it('says what would work in the message', () => {
    expect(() => createStepEditor({ vocabulary, minSteps: 13 })).toThrow(
      'Invalid options.minSteps: expected at most maxSteps (12), got 13',
    );
  });
});
