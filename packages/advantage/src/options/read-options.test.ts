import { InvalidArgumentError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { OptionReader } from './read-options.js';

describe('OptionReader', () => {
  it('returns defaults for absent options and checks present ones', () => {
    const reader = new OptionReader('est', { epsilon: 0.5, std: 'population', on: true }, [
      'epsilon',
      'std',
      'on',
      'w',
    ]);
    expect(reader.number('epsilon', 1, { min: 0 })).toBe(0.5);
    expect(reader.number('w', 0.4)).toBe(0.4);
    expect(reader.choice('std', ['unbiased', 'population'] as const, 'unbiased')).toBe('population');
    expect(reader.boolean('on', false)).toBe(true);
  });

  it('throws InvalidArgumentError naming the option and what it expected', () => {
    const read = (options: unknown) => new OptionReader('est', options, ['x', 'm']);
    expect(() => read({ x: Number.NaN }).number('x', 0)).toThrow(
      /options\.x: est: expected a finite number, got NaN/,
    );
    expect(() => read({ x: 2 }).number('x', 0, { max: 1 })).toThrow(/<= 1, got 2/);
    expect(() => read({ x: 'a' }).choice('x', ['b'], 'b')).toThrow(/expected one of 'b', got 'a'/);
    expect(() => read({ x: 1 }).boolean('x', true)).toThrow(/true or false/);
    expect(() => read({ m: [1] }).numberMap('m')).toThrow(/object or Map/);
    expect(() => read({ m: { a: 'x' } }).numberMap('m')).toThrow(/options\.m\.a/);
    expect(() => read({ y: 1 })).toThrow(/est has no option "y"; known options: x, m/);
    expect(() => read(5)).toThrow(InvalidArgumentError);
  });

  it('reads number maps from objects and Maps with string keys', () => {
    const fromObject = new OptionReader('e', { m: { 7: 0.5 } }, ['m']).numberMap('m');
    const fromMap = new OptionReader('e', { m: new Map([[7, 0.5]]) }, ['m']).numberMap('m');
    expect(fromObject?.get('7')).toBe(0.5);
    expect(fromMap?.get('7')).toBe(0.5);
  });
});
