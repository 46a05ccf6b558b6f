import MiniSearch from 'minisearch';
import { loadPageCache, type PageCache } from './page-cache.js';
import type { SearchHit, WebBackend, WebPage } from './web-page.js';

export interface PageCacheBackendOptions {
  /** Characters of the best-matching passage shown per result. Default 300. */
  snippetChars?: number;
  /** Weight of a title match against a body match. Default 2. */
  titleBoost?: number;
}

const SNIPPET_CHARS = 300;

/**
 * The passage of `text` that holds the most distinct query terms (then the earliest), about `chars` long and
 * cut at word boundaries: what a search engine shows under a result.
 */
export function bestSnippet(text: string, terms: readonly string[], chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= chars) return flat;
  const lower = flat.toLowerCase();
  const wanted = [...new Set(terms.map((t) => t.toLowerCase()).filter(Boolean))];
  let best = 0;
  let bestScore = -1;
  const step = Math.max(20, Math.floor(chars / 4));
  for (let start = 0; start < flat.length; start += step) {
    const window = lower.slice(start, start + chars);
    const score = wanted.filter((t) => window.includes(t)).length;
    if (score > bestScore) {
      best = start;
      bestScore = score;
    }
    if (start + chars >= flat.length) break;
  }
  let from = best;
  if (from > 0) {
    const space = flat.indexOf(' ', from);
    from = space === -1 || space - from > 30 ? from : space + 1;
  }
  let to = Math.min(flat.length, from + chars);
  if (to < flat.length) {
    const space = flat.lastIndexOf(' ', to);
    if (space > from + chars / 2) to = space;
  }
  return `${from > 0 ? '…' : ''}${flat.slice(from, to)}${to < flat.length ? '…' : ''}`;
}

/**
 * The offline backend: BM25 search over the cached pages' titles and text (MiniSearch, whose ranking is
 * BM25+ with k1 = 1.2, b = 0.7, δ = 0.5; terms lower-cased, split on anything not a letter or digit, no
 * stemming, prefix or fuzzy matching, so a query ranks the same pages on every machine), and page fetches
 * from the cache only: a URL that is not in it is "not in the offline cache", never fetched live.
 */
export function createPageCacheBackend(
  cache: PageCache | string,
  options: PageCacheBackendOptions = {},
): WebBackend & { readonly cache: PageCache } {
  const pages = typeof cache === 'string' ? loadPageCache(cache) : cache;
  const snippetChars = options.snippetChars ?? SNIPPET_CHARS;
  let index: MiniSearch<WebPage & { id: number }> | undefined;
  const all = pages.pages();
  const build = () => {
    const search = new MiniSearch<WebPage & { id: number }>({
      fields: ['title', 'text'],
      storeFields: [],
      searchOptions: { boost: { title: options.titleBoost ?? 2 }, prefix: false, fuzzy: false },
    });
    search.addAll(all.map((page, id) => ({ ...page, id })));
    return search;
  };
  return {
    name: `page-cache (${pages.size} pages)`,
    cache: pages,
    problems: pages.problems,
    async search(query, { limit }) {
      index ??= build();
      const results = index.search(query);
      // Equal scores are listed in cache order, so a rerun shows the same list.
      results.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
      return results.slice(0, limit).map((result): SearchHit => {
        const page = all[result.id as number] as WebPage;
        return {
          url: page.url,
          title: page.title,
          snippet: bestSnippet(page.text, result.terms, snippetChars),
        };
      });
    },
    async fetchPage(url) {
      const page = pages.get(url);
      return page ?? { error: `${url} is not in the offline page cache (${pages.size} pages)` };
    },
  };
}
