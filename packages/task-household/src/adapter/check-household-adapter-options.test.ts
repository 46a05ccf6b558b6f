import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  checkHouseholdAdapterOptions,
  HOUSEHOLD_ADAPTER_OPTIONS,
} from './check-household-adapter-options.js';
import { createHouseholdAdapter } from './create-household-adapter.js';

describe('checkHouseholdAdapterOptions', () => {
  it('names an unknown option with the one meant', () => {
    expect(checkHouseholdAdapterOptions({ maxStep: 30 })).toEqual([
      {
        path: '$.adapter.options.maxStep',
        message: 'unknown option of the household adapter; did you mean maxSteps?',
      },
    ]);
  });

  it('reports wrong types, each by path', () => {
    expect(
      checkHouseholdAdapterOptions({ maxSteps: '50', placeSpelling: 'insert', defaultSeed: 1.5 }, 'options'),
    ).toEqual([
      { path: 'options.maxSteps', message: 'expected an integer >= 1, got "50"' },
      {
        path: 'options.placeSpelling',
        message: 'expected one of "grammar", "move", "put", "both", got "insert"',
      },
      { path: 'options.defaultSeed', message: 'expected an integer, got 1.5' },
    ]);
  });

  it('passes a valid full set; the vocabulary is what the factory reads', () => {
    const full = { defaultSeed: 7, maxSteps: 30, placeSpelling: 'both' };
    expect(checkHouseholdAdapterOptions(full)).toEqual([]);
    expect([...HOUSEHOLD_ADAPTER_OPTIONS].sort()).toEqual(Object.keys(full).sort());
    expect(createHouseholdAdapter(full as never).name).toBe('household');
  });

  it('the factory refuses what the check refuses, with a ValidationError', () => {
    try {
      createHouseholdAdapter({ maxStep: 30 } as never);
      expect.unreachable();
    } catch (e) {
      expect(ValidationError.isInstance(e)).toBe(true);
      expect((e as ValidationError).issues[0]?.path).toBe('options.maxStep');
    }
  });
});
