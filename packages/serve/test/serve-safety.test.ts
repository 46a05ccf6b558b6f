import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeInternalizeRun } from '../bench/synthetic-runs.mjs';
import { CONTENT_SECURITY_POLICY, HostNeedsTokenError, type ServeHandle, startServe } from '../src/index.js';

/** A raw GET: the path is sent exactly as given (fetch would normalise `..` away before sending it). */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('skillrl serve: safety', () => {
  let base: string;
  let root: string;
  let open: ServeHandle;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'serve-safety-'));
    root = join(base, 'runs');
    mkdirSync(root);
    writeInternalizeRun(join(root, 'a'), { runId: 'a', steps: 2 });
    writeFileSync(join(base, 'secret.txt'), 'TOP SECRET');
    // A run directory elsewhere, linked into the folder, and a file inside a run linking out.
    writeInternalizeRun(join(base, 'outside-run'), { runId: 'outside', steps: 1 });
    symlinkSync(join(base, 'outside-run'), join(root, 'linked-run'));
    symlinkSync(join(base, 'secret.txt'), join(root, 'a', 'notes.txt'));
    open = await startServe({ dir: root });
  });
  afterAll(async () => {
    await open?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('listens on loopback by default, on a free port, and prints a plain address', () => {
    expect(open.host).toBe('127.0.0.1');
    expect(open.port).toBeGreaterThan(0);
    expect(open.url).toBe(`http://127.0.0.1:${open.port}/`);
  });

  it('refuses a non-loopback host without a token, with a typed error naming the fix', async () => {
    const error = await startServe({ dir: root, host: '0.0.0.0' }).catch((e: unknown) => e);
    expect(HostNeedsTokenError.isInstance(error)).toBe(true);
    expect((error as HostNeedsTokenError).code).toBe('SKILLRL_SERVE_TOKEN_REQUIRED');
    expect((error as Error).message).toMatch(/--token/);
    const short = await startServe({ dir: root, host: '0.0.0.0', token: 'short' }).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(short)).toBe(true);
  });

  it('with a token: the address carries it, and every request without it is refused', async () => {
    const token = 'a-token-of-some-length-0123';
    const s = await startServe({ dir: root, host: '0.0.0.0', token });
    try {
      expect(s.url).toBe(`http://0.0.0.0:${s.port}/?token=${token}`);
      const local = `http://127.0.0.1:${s.port}`;
      for (const path of ['/', '/api/runs', '/api/run?run=a', '/assets/app.js', '/api/live', '/nope']) {
        expect((await rawGet(local, path)).status, path).toBe(401);
        expect(
          (await rawGet(local, `${path}${path.includes('?') ? '&' : '?'}token=wrong-token-0123456789`))
            .status,
          path,
        ).toBe(401);
      }
      // The printed address: sets the cookie and drops the token from the address bar.
      const first = await rawGet(local, `/?token=${token}`);
      expect(first.status).toBe(302);
      expect(first.headers.location).toBe('/');
      const cookie = String(first.headers['set-cookie']).split(';')[0] as string;
      expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/);
      expect(String(first.headers['set-cookie'])).toMatch(/SameSite=Strict/);
      expect((await rawGet(local, '/api/runs', { cookie })).status).toBe(200);
      expect((await rawGet(local, '/api/runs', { authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await rawGet(local, `/api/runs?token=${token}`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('without a token, answers only requests addressed to a loopback name (no DNS rebinding)', async () => {
    expect((await rawGet(open.url, '/api/runs', { host: 'evil.example:80' })).status).toBe(403);
    expect((await rawGet(open.url, '/api/runs', { host: `localhost:${open.port}` })).status).toBe(200);
  });

  it('reads only under its folder: "..", %2e%2e, absolute paths and symlinks out are refused', async () => {
    const file = (path: string) => `/api/file?run=a&path=${path}`;
    expect((await rawGet(open.url, file('config.json'))).status).toBe(200);
    for (const path of [
      '../../secret.txt',
      '%2e%2e/%2e%2e/secret.txt',
      '%2E%2E%2F%2E%2E%2Fsecret.txt',
      encodeURIComponent(join(base, 'secret.txt')),
      '/etc/passwd',
      'notes.txt',
    ]) {
      const r = await rawGet(open.url, file(path));
      expect(r.status, path).toBe(403);
      expect(r.body, path).not.toContain('TOP SECRET');
    }
    // Run ids are looked up, never joined to a path.
    for (const run of [
      '..',
      '../outside-run',
      '%2e%2e%2foutside-run',
      encodeURIComponent(join(base, 'outside-run')),
    ]) {
      expect((await rawGet(open.url, `/api/run?run=${run}`)).status, run).toBe(404);
    }
    // A run directory linked in from outside is not listed.
    const runs = JSON.parse((await rawGet(open.url, '/api/runs')).body) as { runs: { id: string }[] };
    expect(runs.runs.map((r) => r.id)).toEqual(['a']);
    // Static files are a fixed table: no path reaches the disk.
    for (const path of [
      '/assets/../package.json',
      '/assets/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
      '/vendor/virtual-core/..%2f..%2f..%2fpackage.json',
      '//etc/passwd',
    ]) {
      const r = await rawGet(open.url, path);
      expect(r.status, path).toBe(404);
    }
  });

  it('sends a strict Content-Security-Policy (scripts from itself, none inline) on every response', async () => {
    for (const path of ['/', '/assets/app.js', '/api/runs', '/api/run?run=missing', '/nope']) {
      const r = await rawGet(open.url, path);
      expect(r.headers['content-security-policy'], path).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
    }
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    // A run file is shown as text, never as a page.
    const raw = await rawGet(open.url, '/api/file?run=a&path=run.json');
    expect(raw.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('closes when its signal aborts', async () => {
    const controller = new AbortController();
    const s = await startServe({ dir: root, signal: controller.signal });
    expect((await rawGet(s.url, '/api/runs')).status).toBe(200);
    controller.abort();
    await s.close();
    await expect(rawGet(s.url, '/api/runs')).rejects.toThrow();
  });
});
