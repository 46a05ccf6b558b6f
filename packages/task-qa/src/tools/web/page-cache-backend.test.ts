import { describe, expect, it } from 'vitest';
import { createWebTools } from './create-web-tools.js';
import { createPageCache } from './page-cache.js';
import { bestSnippet, createPageCacheBackend } from './page-cache-backend.js';

const cache = createPageCache([
  {
    url: 'https://en.example.org/wiki/Canberra',
    title: 'Canberra',
    text: 'Canberra is the capital city of Australia. It was founded in 1913.',
  },
  {
    url: 'https://en.example.org/wiki/Sydney',
    title: 'Sydney',
    text: 'Sydney is the largest city in Australia.',
  },
  {
    url: 'https://en.example.org/wiki/Oslo',
    title: 'Oslo',
    text: 'Oslo is the capital of Norway.',
    links: ['/wiki/Norway'],
  },
]);

describe('page-cache backend', () => {
  it('ranks pages by BM25 over title and text, reproducibly', async () => {
    const backend = createPageCacheBackend(cache);
    const hits = await backend.search('capital Australia', { limit: 5 });
    if (!Array.isArray(hits)) throw new Error(hits.error);
    // Canberra has both terms; Sydney and Oslo one each, equally rare, and Sydney's page is the longer.
    expect(hits.map((h) => h.title)).toEqual(['Canberra', 'Oslo', 'Sydney']);
    expect(hits[0]).toEqual({
      url: 'https://en.example.org/wiki/Canberra',
      title: 'Canberra',
      snippet: 'Canberra is the capital city of Australia. It was founded in 1913.',
    });
    expect(await backend.search('capital Australia', { limit: 1 })).toEqual([hits[0]]);
    expect(await backend.search('zzzz', { limit: 5 })).toEqual([]);
    expect(backend.name).toBe('page-cache (3 pages)');
  });

  it('serves pages from the cache only', async () => {
    const backend = createPageCacheBackend(cache);
    expect(await backend.fetchPage('https://en.example.org/wiki/Oslo#History')).toMatchObject({
      title: 'Oslo',
    });
    expect(await backend.fetchPage('https://live.example.com/')).toEqual({
      error: 'https://live.example.com/ is not in the offline page cache (3 pages)',
    });
  });

  it('web_search and fetch_page tools format results and pages for the model', async () => {
    const [search, fetch] = createWebTools({ backend: createPageCacheBackend(cache), results: 2 });
    expect(await search?.execute?.({ query: 'capital Australia' })).toBe(
      [
        'Search results for "capital Australia" (page-cache (3 pages)):',
        '',
        '1. Canberra',
        '   https://en.example.org/wiki/Canberra',
        '   Canberra is the capital city of Australia. It was founded in 1913.',
        '',
        '2. Oslo',
        '   https://en.example.org/wiki/Oslo',
        '   Oslo is the capital of Norway.',
      ].join('\n'),
    );
    expect(await search?.execute?.({ query: '  ' })).toBe('Error: web_search needs a non-empty query.');
    expect(await fetch?.execute?.({ url: 'https://en.example.org/wiki/Oslo' })).toBe(
      [
        'Title: Oslo',
        'URL: https://en.example.org/wiki/Oslo',
        '',
        'Oslo is the capital of Norway.',
        '',
        'Links (1):',
        '[1] (no text) -> https://en.example.org/wiki/Norway',
      ].join('\n'),
    );
    expect(await fetch?.execute?.({ url: 'https://nowhere.example/' })).toBe(
      'Could not open https://nowhere.example/: https://nowhere.example/ is not in the offline page cache (3 pages).',
    );
  });

  it('shows the passage with the most query terms as the snippet', () => {
    const text = `${'filler words here. '.repeat(40)}The Eiffel tower is in Paris. ${'more filler. '.repeat(40)}`;
    const snippet = bestSnippet(text, ['eiffel', 'paris'], 80);
    expect(snippet).toContain('Eiffel tower is in Paris');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(82);
  });
});
