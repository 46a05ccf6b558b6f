import { describe, expect, it } from 'vitest';
import { buildStepIndex } from './step-index.js';
import { allowedTokens, type StepNetworkSpec } from './step-network.js';

const index = buildStepIndex({ a: ['s zero', 's one', 's two'], b: ['s three', 's zero'] });
const spec = (over: Partial<StepNetworkSpec> = {}): StepNetworkSpec => ({
  index,
  contextSize: 1,
  hiddenSize: 2,
  maxSteps: 6,
  minSteps: 2,
  temperature: 1,
  orderPrior: 0,
  restrictToFamily: true,
  allowRepeats: false,
  ...over,
});
const open = (allowed: boolean[]) => allowed.flatMap((ok, id) => (ok ? [id] : []));

describe('allowedTokens', () => {
  it('keeps to the family, forbids repeats and holds the end until minSteps', () => {
    // ids: s zero 0, s one 1, s two 2, s three 3; end 4
    expect(open(allowedTokens(spec(), 'a', []))).toEqual([0, 1, 2]);
    expect(open(allowedTokens(spec(), 'a', [0]))).toEqual([1, 2]);
    expect(open(allowedTokens(spec(), 'a', [0, 2]))).toEqual([1, 4]);
    expect(open(allowedTokens(spec(), 'b', [3]))).toEqual([0]);
    // Everything used before minSteps: the end is the only way out.
    expect(open(allowedTokens(spec({ minSteps: 5 }), 'b', [3, 0]))).toEqual([4]);
  });

  it('opens every phrase for an unknown family or without the restriction, and repeats on request', () => {
    expect(open(allowedTokens(spec(), 'zzz', []))).toEqual([0, 1, 2, 3]);
    expect(open(allowedTokens(spec({ restrictToFamily: false }), 'a', [1, 3]))).toEqual([0, 2, 4]);
    expect(open(allowedTokens(spec({ allowRepeats: true }), 'a', [0, 0]))).toEqual([0, 1, 2, 4]);
    expect(open(allowedTokens(spec({ minSteps: 0 }), 'a', []))).toEqual([0, 1, 2, 4]);
  });
});
