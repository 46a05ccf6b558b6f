import type { AdvantageEstimator } from '@skillrl/core';
import { RegistryError } from '@skillrl/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createEstimator,
  listEstimators,
  registerEstimator,
  unregisterEstimator,
} from './estimator-registry.js';

const constant = (): AdvantageEstimator => ({
  name: 'constant',
  estimate: (batch) => ({ advantages: new Float64Array(batch.scores.length), metrics: {} }),
});

describe('estimator registry', () => {
  afterEach(() => {
    unregisterEstimator('constant');
  });

  it("lists every built-in under the issue's names and verl's spellings", () => {
    expect(listEstimators()).toEqual([
      'grpo',
      'dr-grpo',
      'rloo',
      'grpo-passk',
      'grpo_passk',
      'reinforce-pp-baseline',
      'reinforce_plus_plus_baseline',
      'reinforce-pp',
      'reinforce_plus_plus',
      'opo',
      'remax',
      'gpg',
      'skill-r1',
      'skillc',
      'd2skill-mixed',
      'gigpo',
    ]);
    expect(createEstimator('grpo_passk').name).toBe('grpo-passk');
  });

  it('creates an estimator by name with options', () => {
    const estimator = createEstimator('grpo', { preset: 'art' });
    expect(estimator.name).toBe('grpo');
    expect(Array.from(estimator.estimate({ scores: [1, 0], groupIds: [1, 1] }).advantages)).toEqual([
      0.5 / (0.5 + 1e-6),
      -0.5 / (0.5 + 1e-6),
    ]);
  });

  it('throws RegistryError listing the registered names for an unknown one', () => {
    let error: unknown;
    try {
      createEstimator('ppo');
    } catch (e) {
      error = e;
    }
    expect(RegistryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /Unknown advantage estimator "ppo"\. Registered: grpo, dr-grpo, rloo/,
    );
  });

  it('ignores registering the same factory twice and refuses a different one under a taken name', () => {
    registerEstimator('constant', constant);
    registerEstimator('constant', constant);
    expect(listEstimators().filter((n) => n === 'constant')).toHaveLength(1);
    expect(() => registerEstimator('constant', () => constant())).toThrow(RegistryError);
    expect(() => registerEstimator('grpo', constant)).toThrow(/already registered as "grpo"/);
    expect(createEstimator('constant').name).toBe('constant');
  });

  it('replaces an entry after unregistering it, and rejects empty names', () => {
    registerEstimator('constant', constant);
    expect(unregisterEstimator('constant')).toBe(true);
    const other = () => constant();
    registerEstimator('constant', other);
    expect(unregisterEstimator('missing')).toBe(false);
    expect(() => registerEstimator('', constant)).toThrow(/name/);
    expect(() => registerEstimator('x', 5 as never)).toThrow(/factory/);
  });

  it('is one registry across copies of the module (the ESM and CJS builds): a name registered in one is seen by the other', async () => {
    registerEstimator('constant', constant);
    vi.resetModules();
    // A fresh instance of the module, as the other build (or another installed copy) would be.
    const copy: string = './estimator-registry.js?copy';
    const other = (await import(/* @vite-ignore */ copy)) as typeof import('./estimator-registry.js');
    expect(other.registerEstimator).not.toBe(registerEstimator);
    expect(other.listEstimators()).toContain('constant');
    expect(other.createEstimator('constant').name).toBe('constant');
    // verl's rule holds across copies: the same function again is fine, a different one is refused.
    other.registerEstimator('constant', constant);
    expect(() => other.registerEstimator('constant', () => constant())).toThrow(/already registered/);
    expect(other.unregisterEstimator('constant')).toBe(true);
    expect(listEstimators()).not.toContain('constant');
  });
});
