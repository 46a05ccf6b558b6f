import { describe, expect, it } from 'vitest';
import { registerSecret } from '../secrets/redact-secrets.js';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { MissingFieldError } from './missing-field-error.js';
import { RegistryError } from './registry-error.js';
import { SkillrlError } from './skillrl-error.js';
import { ValidationError } from './validation-error.js';

describe('typed errors', () => {
  it('carry a code, a name and a message that says what was expected', () => {
    const e = new MissingFieldError(
      'skillc',
      'conditions',
      'pass 1 for with-skill rollouts and 0 for without',
    );
    expect(e.code).toBe('SKILLRL_MISSING_FIELD');
    expect(e.name).toBe('MissingFieldError');
    expect(e.field).toBe('conditions');
    expect(e.message).toBe(
      'skillc needs the field "conditions", which is missing: pass 1 for with-skill rollouts and 0 for without',
    );
    const r = new RegistryError('estimator', 'grpoo', 'unknown', ['grpo', 'rloo']);
    expect(r.message).toBe('Unknown estimator "grpoo". Registered: grpo, rloo.');
    expect(r.code).toBe('SKILLRL_UNKNOWN_NAME');
  });

  it('are recognised by marker, not by class identity', () => {
    const e = new InvalidArgumentError('options.epsilon', 'expected a number >= 0, got -1');
    expect(SkillrlError.isInstance(e)).toBe(true);
    expect(InvalidArgumentError.isInstance(e)).toBe(true);
    expect(ValidationError.isInstance(e)).toBe(false);
    expect(SkillrlError.isInstance(new Error('plain'))).toBe(false);
    expect(SkillrlError.isInstance(null)).toBe(false);
    // An object from "another copy" of the package: same global symbol, different class.
    const foreign = Object.assign(new Error('x'), { [Symbol.for('skillrl.error')]: true });
    expect(SkillrlError.isInstance(foreign)).toBe(true);
  });

  it('keep the cause', () => {
    const cause = new Error('root');
    expect(new SkillrlError('X', 'outer', { cause }).cause).toBe(cause);
  });

  it('never carry a secret in their message', () => {
    registerSecret('my-very-private-key-123');
    const e = new SkillrlError(
      'SKILLRL_LLM',
      'request failed with key my-very-private-key-123, header Bearer abcdefghijkl, sk-proj-ABCDEFGHIJ1234 and apiKey: "zzzzzzzz9"',
    );
    expect(e.message).not.toContain('my-very-private-key-123');
    expect(e.message).not.toContain('abcdefghijkl');
    expect(e.message).not.toContain('sk-proj-ABCDEFGHIJ1234');
    expect(e.message).not.toContain('zzzzzzzz9');
    expect(e.message).toContain('[REDACTED]');
    expect(JSON.stringify(e)).not.toContain('private');
  });
});
