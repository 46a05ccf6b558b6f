import { describe, expect, it } from 'vitest';
import { isLoopbackHost, serveCommandLine, serveUrl } from './serve-address.js';

describe('serve addresses', () => {
  it('tells loopback from addresses other machines reach', () => {
    for (const h of ['127.0.0.1', '127.8.9.1', 'localhost', '::1', '[::1]', 'app.localhost']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ['0.0.0.0', '::', '192.168.1.4', '10.0.0.2', 'example.com', 'localhost.example.com']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });

  it('prints the address with the token in it when there is one', () => {
    expect(serveUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080/');
    expect(serveUrl('::1', 8080)).toBe('http://[::1]:8080/');
    const url = serveUrl('0.0.0.0', 9000, 'a b&c0123456789abcdef');
    expect(url).toBe('http://0.0.0.0:9000/?token=a%20b%26c0123456789abcdef');
    expect(serveCommandLine(url, 'x')).toMatch(/^skillrl serve: open http:\/\/0\.0\.0\.0:9000\/\?token=/);
    expect(serveCommandLine('http://127.0.0.1:1/')).toBe('skillrl serve: open http://127.0.0.1:1/');
  });
});
