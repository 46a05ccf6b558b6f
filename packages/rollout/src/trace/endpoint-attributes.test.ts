import { registerSecret } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { endpointAttributes } from './endpoint-attributes.js';

describe('endpointAttributes', () => {
  it('keeps scheme, host, port and path; drops user, password, query and fragment', () => {
    expect(endpointAttributes('https://user:pa55word@llm.example.com:8443/v1/?api-key=abc#x')).toEqual({
      address: 'llm.example.com',
      port: 8443,
      endpoint: 'https://llm.example.com:8443/v1',
    });
  });

  it("fills the scheme's default port and unbrackets IPv6 hosts", () => {
    expect(endpointAttributes('https://api.openai.com/v1')).toMatchObject({ port: 443 });
    expect(endpointAttributes('http://[::1]:8000/v1')).toEqual({
      address: '::1',
      port: 8000,
      endpoint: 'http://[::1]:8000/v1',
    });
    expect(endpointAttributes('http://gpu-node/v1')?.port).toBe(80);
  });

  it('redacts a registered secret inside the path, and gives nothing for a string that is no URL', () => {
    registerSecret('path-secret-0123456789');
    expect(endpointAttributes('https://gw.example.com/key/path-secret-0123456789/v1')?.endpoint).toBe(
      'https://gw.example.com/key/[REDACTED]/v1',
    );
    expect(endpointAttributes('not a url')).toBeUndefined();
  });
});
