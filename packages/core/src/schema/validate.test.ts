import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../contracts/trajectory.js';
import { SkillrlError } from '../errors/skillrl-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { checkSchema, compileSchema, isValid, toJsonPath, validate } from './validate.js';

const trajectory: Trajectory = {
  id: 't1:c1:i0',
  taskId: 't1',
  family: 'heat',
  condition: 1,
  skill: { name: 'heat-things', hash: 'abc' },
  steps: [
    { index: 0, observation: 'You are in the middle of a room.', action: 'look', reward: 0, done: false },
  ],
  reward: 1,
  verdict: { score: 1, passed: true, reason: 'won' },
};

describe('validate', () => {
  it('returns valid values unchanged', () => {
    expect(validate('trajectory', trajectory)).toBe(trajectory);
    expect(
      validate('task', { id: 'x', family: 'f', split: 'train', prompt: 'p', answer: ['a', 1] }),
    ).toBeTruthy();
    expect(isValid('verdict', { score: 0.5, passed: false })).toBe(true);
  });

  it('names every failing JSON path and what was expected', () => {
    const bad = {
      ...trajectory,
      condition: 2,
      steps: [{ index: 0, observation: 'o', action: 'a', reward: 'high', done: true }],
      verdict: { score: 1.5 },
    };
    let error: unknown;
    try {
      validate('trajectory', bad);
    } catch (e) {
      error = e;
    }
    expect(ValidationError.isInstance(error)).toBe(true);
    expect(SkillrlError.isInstance(error)).toBe(true);
    const v = error as ValidationError;
    expect(v.code).toBe('SKILLRL_VALIDATION');
    expect(v.kind).toBe('trajectory');
    expect(v.issues).toEqual(
      expect.arrayContaining([
        { path: '$.condition', message: 'expected one of 0, 1' },
        { path: '$.steps[0].reward', message: 'expected number' },
        { path: '$.verdict.score', message: 'expected a number <= 1' },
        { path: '$.verdict.passed', message: 'is required but missing' },
      ]),
    );
    expect(v.issues).toHaveLength(4);
    expect(v.message).toContain('$.steps[0].reward: expected number');
    expect(v.message).toContain('Invalid trajectory (4 problems)');
  });

  it('checks events by their type', () => {
    const ok = {
      type: 'step',
      runId: 'r',
      time: '2026-11-29T10:00:00.000Z',
      step: 3,
      metrics: { loss: 0.1 },
    };
    expect(checkSchema('event', ok)).toEqual([]);
    const issues = checkSchema('event', { type: 'rollout', runId: 'r', time: 'yesterday', taskId: 't' });
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['$.time', '$.trajectoryId', '$.family', '$.condition', '$.reward', '$.passed']),
    );
    expect(issues.find((i) => i.path === '$.time')?.message).toBe('expected a date-time string');
    expect(issues.some((i) => i.path === '$.taskId')).toBe(false);
    expect(checkSchema('event', { type: 'nope' })[0]?.path).toBe('$.type');
  });

  it('checks a workers event (rollout workers on a queue): its status, the workers listening, the message', () => {
    const event = {
      type: 'workers',
      runId: 'r',
      time: '2026-12-02T10:00:00.000Z',
      status: 'no-worker',
      workers: 0,
      message: 'no worker is listening on queue "skillrl-rollouts"',
    };
    expect(checkSchema('event', event)).toEqual([]);
    expect(checkSchema('event', { ...event, status: 're-enqueued', jobs: 12 })).toEqual([]);
    expect(checkSchema('event', { ...event, status: 'gone' }).map((i) => i.path)).toEqual(['$.status']);
    const { message: _, ...silent } = event;
    expect(checkSchema('event', silent).map((i) => i.path)).toEqual(['$.message']);
  });

  it('requires episode counts per side in a validation result', () => {
    const heat = { withSkill: 0.5, withoutSkill: 0.25, withSkillEpisodes: 8, withoutSkillEpisodes: 8 };
    expect(checkSchema('validation-result', { step: 0, families: { heat } })).toEqual([]);
    expect(
      checkSchema('validation-result', { step: 10, families: { heat: { ...heat, episodes: 16 } } }),
    ).toEqual([]);
    // A family without a skill ran no with-skill episodes: 0 is a valid count (no evidence), not a gap.
    expect(
      checkSchema('validation-result', {
        step: 10,
        families: { cool: { withSkill: 1, withoutSkill: 1, withSkillEpisodes: 0, withoutSkillEpisodes: 1 } },
      }),
    ).toEqual([]);
    expect(
      checkSchema('validation-result', {
        step: 10,
        families: { heat: { withSkill: 0.5, withoutSkill: 0.25 } },
      }),
    ).toEqual([
      { path: '$.families.heat.withSkillEpisodes', message: 'is required but missing' },
      { path: '$.families.heat.withoutSkillEpisodes', message: 'is required but missing' },
    ]);
    const issues = checkSchema('validation-result', {
      step: 10,
      families: { heat: { ...heat, withSkillEpisodes: -1, withoutSkillEpisodes: 2.5 } },
    });
    expect(issues).toEqual([
      { path: '$.families.heat.withSkillEpisodes', message: 'expected a number >= 0' },
      { path: '$.families.heat.withoutSkillEpisodes', message: 'expected integer' },
    ]);
    // The validation event carries the same schema.
    const event = { type: 'validation', runId: 'r', time: '2026-11-29T10:00:00.000Z', step: 0 };
    expect(checkSchema('event', { ...event, validation: { step: 0, families: { heat } } })).toEqual([]);
    expect(
      checkSchema('event', {
        ...event,
        validation: { step: 0, families: { heat: { withSkill: 1, withoutSkill: 0 } } },
      }).map((i) => i.path),
    ).toContain('$.validation.families.heat.withSkillEpisodes');
  });

  it('validates skills with the Agent Skills limits', () => {
    const issues = checkSchema('skill', { name: 'Bad Name', description: '', body: 1, extra: true });
    expect(issues).toEqual(
      expect.arrayContaining([
        {
          path: '$.name',
          message:
            'expected a string matching /^[\\p{Ll}\\p{Lm}\\p{Lo}\\p{N}]+(-[\\p{Ll}\\p{Lm}\\p{Lo}\\p{N}]+)*$/',
        },
        { path: '$.description', message: 'expected a string of at least 1 characters' },
        { path: '$.body', message: 'expected string' },
        { path: '$.extra', message: 'is not a known field (check its spelling)' },
      ]),
    );
  });

  it('skill names as the Agent Skills spec has them: Unicode lowercase, single hyphens, 64 code points', () => {
    const named = (name: string) => checkSchema('skill', { name, description: 'd', body: '' });
    // Spec: "Unicode lowercase alphanumeric characters and hyphens"; max 64 characters (code points).
    expect(named('données')).toEqual([]);
    expect(named('日本語-skill')).toEqual([]);
    expect(named('v2-notes')).toEqual([]);
    // 64 astral digits: 128 UTF-16 units, 64 characters.
    expect(named('𝟘'.repeat(64))).toEqual([]);
    expect(named('𝟘'.repeat(65)).map((i) => i.path)).toEqual(['$.name']);
    // Spec: must not start or end with a hyphen, nor hold consecutive hyphens; no uppercase.
    for (const bad of ['Données', '-a', 'a-', 'a--b', 'a b', 'a_b']) {
      expect(
        named(bad).map((i) => i.path),
        bad,
      ).toEqual(['$.name']);
    }
  });

  it('rejects an unknown kind with a typed error', () => {
    expect(() => validate('nope' as never, {})).toThrow(/schema kind/);
  });

  it('formats JSON pointers as readable paths', () => {
    expect(toJsonPath('')).toBe('$');
    expect(toJsonPath('/a/0/b~1c/with space')).toBe('$.a[0]["b/c"]["with space"]');
  });

  it('compiles a schema of your own with the same messages', () => {
    const config = compileSchema<{ seed: number; name?: string }>(
      {
        type: 'object',
        required: ['seed'],
        properties: { seed: { type: 'integer' }, name: { type: 'string', minLength: 1 } },
        additionalProperties: false,
      },
      'config',
    );
    expect(config.validate({ seed: 1 })).toEqual({ seed: 1 });
    expect(config.check({ name: '', extra: 1 })).toEqual([
      { path: '$.seed', message: 'is required but missing' },
      { path: '$.extra', message: 'is not a known field (check its spelling)' },
      { path: '$.name', message: 'expected a string of at least 1 characters' },
    ]);
    expect(() => config.validate({ seed: 'x' })).toThrow(
      /Invalid config \(1 problem\):\n {2}- \$\.seed: expected integer/,
    );
  });
});
