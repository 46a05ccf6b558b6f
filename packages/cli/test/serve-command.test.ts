import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, startCli, tempDir } from './support.js';

// `skillrl serve` as a user starts it: the built bin, a folder of runs, the printed address, then Ctrl-C. The
// views themselves are tested in @skillrl/serve's Chromium suite; this is the command around them.

/** The first line the child prints on stdout. */
async function firstLine(child: ReturnType<typeof startCli>): Promise<string> {
  let text = '';
  child.stdout?.setEncoding('utf8');
  while (!text.includes('\n')) {
    const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [string];
    text += chunk;
  }
  return text.split('\n')[0] as string;
}

describe('skillrl serve', () => {
  it('listens on loopback, prints the address, serves the runs API, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir('serve-cli');
    mkdirSync(join(dir, 'runs'), { recursive: true });
    const child = startCli(['serve', join(dir, 'runs')]);
    const exited = finish(child);
    const line = await firstLine(child);
    const url = /^skillrl serve: open (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line)?.[1];
    expect(url, line).toBeDefined();
    const runs = await fetch(`${url}api/runs`);
    expect(runs.status).toBe(200);
    expect(runs.headers.get('content-security-policy')).toContain("script-src 'self'");
    child.kill('SIGTERM');
    const result = await exited;
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain('skillrl serve: stopped');
  }, 60_000);

  it('refuses a non-loopback --host without a token, naming the fix, and listens on nothing', async () => {
    const dir = tempDir('serve-cli-host');
    const result = await finish(startCli(['serve', dir, '--host', '0.0.0.0']));
    expect(result.code).toBe(1);
    expect(result.err).toContain('--host 0.0.0.0 is reachable from other machines, so it needs a token');
    expect(result.out).toBe('');
  }, 60_000);

  it('with --token, prints the address carrying it and says so', async () => {
    const dir = tempDir('serve-cli-token');
    const token = 'a-token-of-twenty-chars';
    const child = startCli(['serve', dir, '--token', token]);
    const exited = finish(child);
    const line = await firstLine(child);
    expect(line).toContain(`?token=${token}`);
    const url = /open (\S+)/.exec(line)?.[1] as string;
    const base = url.slice(0, url.indexOf('?'));
    expect((await fetch(`${base}api/runs`)).status).toBe(401);
    child.kill('SIGINT');
    expect((await exited).code).toBe(0);
  }, 60_000);
});
