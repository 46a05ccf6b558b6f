import { describe, expect, it } from 'vitest';
import { rolloutErrored, rolloutScore, splitErrored } from './errored-rollouts.js';

describe('the errored-rollout policy', () => {
  it('an errored rollout scores NaN (left out), any other its reward, 0 included', () => {
    expect(rolloutScore({ reward: 0, error: { code: 'model', message: 'x' } })).toBeNaN();
    expect(rolloutScore({ reward: 0 })).toBe(0);
    expect(rolloutScore({ reward: 0.5 })).toBe(0.5);
    expect(rolloutErrored({ error: { code: 'environment', message: 'x' } })).toBe(true);
    expect(rolloutErrored({})).toBe(false);
  });

  it('splits in order, each side keeping the order given', () => {
    const e = (id: string) => ({ id, error: { code: 'model', message: id } });
    const ok = (id: string): { id: string; error?: { code: string; message: string } } => ({ id });
    const { scored, errored } = splitErrored([ok('a'), e('b'), ok('c'), e('d')]);
    expect(scored.map((r) => r.id)).toEqual(['a', 'c']);
    expect(errored.map((r) => r.id)).toEqual(['b', 'd']);
  });
});
