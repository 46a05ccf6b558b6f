import { describe, expect, it } from 'vitest';
import { redactObject, redactSecrets, registerSecret } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('removes registered values and credential-shaped text, and leaves ordinary text alone', () => {
    registerSecret('tok_live_0123456789');
    expect(redactSecrets('calling with tok_live_0123456789 now')).toBe('calling with [REDACTED] now');
    expect(redactSecrets('Authorization: Bearer abc.def-ghi_jkl')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactSecrets('OPENAI_API_KEY=sk-abcdefghijklmnop')).toBe('OPENAI_API_KEY=[REDACTED]');
    expect(redactSecrets('put the apple in the fridge 1')).toBe('put the apple in the fridge 1');
    // Short values are not registered: they would mangle ordinary words.
    registerSecret('abc');
    expect(redactSecrets('abc')).toBe('abc');
  });

  it('redacts secret-named fields of a config deeply, without touching the input', () => {
    const config = {
      agent: { model: 'gpt-4o-mini', apiKey: 'sk-123456789abc', baseURL: 'http://x' },
      list: [{ password: 'p' }],
    };
    const out = redactObject(config);
    expect(out).toEqual({
      agent: { model: 'gpt-4o-mini', apiKey: '[REDACTED]', baseURL: 'http://x' },
      list: [{ password: '[REDACTED]' }],
    });
    expect(config.agent.apiKey).toBe('sk-123456789abc');
  });
});
