import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeUrl } from './normalize-url.js';
import { createPageCache, loadPageCache } from './page-cache.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'page-cache-'));
  dirs.push(dir);
  return dir;
}

describe('normalizeUrl', () => {
  it('drops the fragment and a trailing slash, lower-cases the host, keeps the query', () => {
    expect(normalizeUrl('https://A.org/x/#top')).toBe('https://a.org/x');
    expect(normalizeUrl('https://a.org')).toBe('https://a.org/');
    expect(normalizeUrl('https://a.org:443/p?id=2')).toBe('https://a.org/p?id=2');
    expect(normalizeUrl('calls/', 'https://a.org/root/')).toBe('https://a.org/root/calls');
    expect(normalizeUrl('mailto:x@a.org')).toBeUndefined();
    expect(normalizeUrl('not a url')).toBeUndefined();
  });
});

describe('page cache', () => {
  it('reads a JSONL file: text pages, HTML pages, links resolved, bad lines and duplicates reported', () => {
    const dir = tempDir();
    const file = join(dir, 'pages.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({
          url: 'https://site.org/',
          title: 'Home',
          text: 'Welcome.',
          links: ['/about', { url: 'https://site.org/news/', text: 'News' }, '#top'],
        }),
        JSON.stringify({
          url: 'https://site.org/about',
          html: '<html><head><title>About us</title></head><body><p>We are <a href="team">the team</a>.</p></body></html>',
        }),
        'not json',
        JSON.stringify({ url: 'https://site.org/about/', text: 'a duplicate' }),
        JSON.stringify({ url: 'ftp://site.org/x', text: 'x' }),
        JSON.stringify({ url: 'https://site.org/empty' }),
      ].join('\n'),
    );
    const cache = loadPageCache(file);
    expect(cache.size).toBe(2);
    expect(cache.get('https://site.org')).toEqual({
      url: 'https://site.org/',
      title: 'Home',
      text: 'Welcome.',
      links: [
        { url: 'https://site.org/about', text: '' },
        { url: 'https://site.org/news', text: 'News' },
        { url: 'https://site.org/', text: '' },
      ],
    });
    expect(cache.get('http://www.site.org/about/')).toEqual({
      url: 'https://site.org/about',
      title: 'About us',
      text: 'We are the team.',
      links: [{ url: 'https://site.org/team', text: 'the team' }],
    });
    expect(cache.problems.map((p) => `${p.line} ${p.severity} ${p.message}`)).toEqual([
      expect.stringMatching(/^3 error not valid JSON/),
      '4 warning duplicate page https://site.org/about; the first one is kept',
      '5 error url: expected an absolute http(s) URL, got "ftp://site.org/x"',
      '6 error text: missing (give text or html)',
    ]);
  });

  it('reads a folder of .json and .jsonl files in path order', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify([{ url: 'https://x.org/1', text: 'one' }]));
    writeFileSync(join(dir, 'b', 'c.jsonl'), `${JSON.stringify({ url: 'https://x.org/2', text: 'two' })}\n`);
    writeFileSync(join(dir, 'skip.txt'), 'ignored');
    const cache = loadPageCache(dir);
    expect(cache.pages().map((p) => p.text)).toEqual(['one', 'two']);
    expect(() => loadPageCache(join(dir, 'missing'))).toThrow(/cannot read the page cache/);
  });

  it('builds from records in memory', () => {
    const cache = createPageCache([
      { url: 'https://x.org/', text: 'hi' },
      { url: 'x', text: 'bad' },
    ]);
    expect(cache.size).toBe(1);
    expect(cache.problems).toHaveLength(1);
  });
});
