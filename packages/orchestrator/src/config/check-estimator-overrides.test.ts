import { ValidationError } from '@skillrl/core';
import { SKILLC_STEP_BATCH_FIELDS } from '@skillrl/curriculum';
import { SKILL_R1_GENERATION_BATCH_FIELDS } from '@skillrl/skill-generator/generation';
import { describe, expect, it } from 'vitest';
import {
  checkEstimatorOverrides,
  methodBatchFields,
  readBatchOverrides,
  refuseOverriddenOptions,
} from './check-estimator-overrides.js';

// As the steps' packages declare them.
const FIELDS = { internalize: SKILLC_STEP_BATCH_FIELDS, evolve: SKILL_R1_GENERATION_BATCH_FIELDS };

// As @skillrl/advantage declares them (SKILLC_BATCH_OVERRIDES, SKILL_R1_BATCH_OVERRIDES).
const SKILLC = { attributionStrengths: ['lambda', 'lambdaByFamily'] };
const SKILL_R1 = {
  interGenerationWeights: ['lambda'],
  previousMeans: ['previousMeans'],
};

describe('checkEstimatorOverrides', () => {
  it('names each option internalize overrides, the field and where its values come from; leaves the rest', () => {
    const issues = checkEstimatorOverrides(
      {
        method: 'internalize',
        estimator: {
          name: 'skillc',
          options: { lambda: 0.5, lambdaByFamily: { heat: 2 }, w: 0.3, scope: 'batch' },
        },
      },
      SKILLC,
      FIELDS.internalize,
    );
    expect(issues).toEqual([
      {
        path: '$.estimator.options.lambda',
        message:
          'is replaced by the batch field attributionStrengths, which internalize fills on every step (SKILLC\'s λ_k of each rollout\'s skill type from the curriculum: 0 once the type retires, and under variants grpo, skill0 and d2skill-mixed), so "skillc" never reads it; remove it and set the base λ as internalize.curriculum.lambda; λ_k per type follows from the validations',
      },
      expect.objectContaining({
        path: '$.estimator.options.lambdaByFamily',
        message: expect.stringMatching(/^is replaced by the batch field attributionStrengths, /),
      }),
    ]);
  });

  it('names what evolve overrides: lambda by interGenerationWeights (evolve.lambda), previousMeans by the batch', () => {
    const issues = checkEstimatorOverrides(
      {
        method: 'evolve',
        estimator: {
          name: 'skill-r1',
          options: {
            lambda: 2,
            previousMeans: { a: 0.5 },
            interBaseline: 'carried-skill',
            normalizeIntra: true,
          },
        },
      },
      SKILL_R1,
      FIELDS.evolve,
    );
    expect(issues.map((i) => i.path)).toEqual([
      '$.estimator.options.lambda',
      '$.estimator.options.previousMeans',
    ]);
    expect(issues[0]?.message).toBe(
      'is replaced by the batch field interGenerationWeights, which evolve fills on every generation (evolve.lambda, default 1; 0 under variant vanilla-grpo), so "skill-r1" never reads it; remove it and set evolve.lambda instead',
    );
    expect(issues[1]?.message).toMatch(
      /^is replaced by the batch field previousMeans, .*measured by the run\), .*; remove it$/,
    );
  });

  it('flags nothing the method does not fill, nothing for no-skill, nothing without options', () => {
    // skill-r1's previousMeans is an evolve field: an internalize run would not override it.
    expect(
      checkEstimatorOverrides(
        { method: 'internalize', estimator: { name: 'x', options: { previousMeans: {} } } },
        SKILL_R1,
        FIELDS.internalize,
      ),
    ).toEqual([]);
    expect(
      checkEstimatorOverrides(
        {
          method: 'evolve',
          evolve: { variant: 'no-skill' },
          estimator: { name: 'skill-r1', options: { lambda: 2 } },
        },
        SKILL_R1,
        FIELDS.evolve,
      ),
    ).toEqual([]);
    expect(
      checkEstimatorOverrides({ method: 'internalize', estimator: 'skillc' }, SKILLC, FIELDS.internalize),
    ).toEqual([]);
    expect(checkEstimatorOverrides({ method: 'internalize' }, SKILLC, FIELDS.internalize)).toEqual([]);
    // An estimator that declares nothing has nothing overridden, whatever its options are called.
    expect(
      checkEstimatorOverrides(
        { method: 'internalize', estimator: { name: 'skillc', options: { lambda: 1 } } },
        {},
        FIELDS.internalize,
      ),
    ).toEqual([]);
  });

  it("checks a package's estimator by its declaration alone, with no name special", () => {
    const issues = checkEstimatorOverrides(
      {
        method: 'internalize',
        estimator: { package: './my-estimator.mjs', options: { strength: 2, other: 1 } },
      },
      { attributionStrengths: ['strength'], conditions: ['other'] },
      FIELDS.internalize,
    );
    expect(issues.map((i) => [i.path, i.message.split(',')[0]])).toEqual([
      ['$.estimator.options.strength', 'is replaced by the batch field attributionStrengths'],
      ['$.estimator.options.other', 'is replaced by the batch field conditions'],
    ]);
    expect(issues[0]?.message).toContain('"./my-estimator.mjs" never reads it');
  });
});

describe('refuseOverriddenOptions', () => {
  const config = { method: 'evolve' as const, estimator: { name: 'skill-r1', options: { lambda: 2 } } };

  it('throws a ValidationError naming the option at run, and warns instead on resume', () => {
    expect(() => refuseOverriddenOptions(config, SKILL_R1, FIELDS.evolve, {})).toThrow(ValidationError);
    expect(() => refuseOverriddenOptions(config, SKILL_R1, FIELDS.evolve, {})).toThrow(
      /\$\.estimator\.options\.lambda: is replaced by the batch field interGenerationWeights/,
    );
    const warnings: string[] = [];
    refuseOverriddenOptions(config, SKILL_R1, FIELDS.evolve, {
      resume: true,
      onWarning: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^estimator\.options\.lambda: is replaced by the batch field interGenerationWeights, .* \(the run resumes as it started, without it\)$/,
      ),
    ]);
    expect(() => refuseOverriddenOptions(config, {}, FIELDS.evolve, {})).not.toThrow();
  });
});

describe('readBatchOverrides', () => {
  it('keeps records of string lists and ignores any other shape a package may put there', () => {
    expect(readBatchOverrides({ attributionStrengths: ['a', 3, 'b'], x: 'y' })).toEqual({
      attributionStrengths: ['a', 'b'],
    });
    for (const junk of [undefined, null, 'lambda', ['lambda'], 3])
      expect(readBatchOverrides(junk)).toEqual({});
  });

  it("methodBatchFields reads each method's fields from its step's package", async () => {
    expect(await methodBatchFields('internalize')).toBe(SKILLC_STEP_BATCH_FIELDS);
    expect(await methodBatchFields('evolve')).toBe(SKILL_R1_GENERATION_BATCH_FIELDS);
  });
});
