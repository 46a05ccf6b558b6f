import { InvalidArgumentError, type ToolDefinition } from '@skillrl/core';
import { DEFAULT_TOOL_MAX_CHARS, offsetArgument, stringArgument } from '../tool-text.js';
import { formatPage, formatSearchHits } from './format-web-results.js';
import type { WebBackend } from './web-page.js';

export interface WebToolsOptions {
  backend: WebBackend;
  /** Results per search unless the model asks for fewer (at most `maxResults`). Default 5, cap 10. */
  results?: number;
  maxResults?: number;
  /** Characters of page text per `fetch_page` call. Default 20,000. */
  maxChars?: number;
}

/**
 * `web_search({ query, limit? })` and `fetch_page({ url, offset? })` over one backend: the offline page cache
 * or a live search API. Which backend answered is named in every search result, so a trajectory says
 * whether it saw the live web.
 */
export function createWebTools(options: WebToolsOptions): ToolDefinition[] {
  const { backend } = options;
  const maxResults = options.maxResults ?? 10;
  const results = Math.min(options.results ?? 5, maxResults);
  const maxChars = options.maxChars ?? DEFAULT_TOOL_MAX_CHARS;
  if (!(Number.isInteger(results) && results >= 1)) {
    throw new InvalidArgumentError('results', `expected an integer >= 1, got ${String(options.results)}`);
  }
  const search: ToolDefinition = {
    name: 'web_search',
    description: `Search the web. Returns up to ${results} results (title, URL, snippet); open one with fetch_page.`,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to search for.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: maxResults,
          description: `Results wanted. Default ${results}.`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async execute(args, context) {
      const query = stringArgument(args.query);
      if (!query) return 'Error: web_search needs a non-empty query.';
      const asked = args.limit === undefined ? results : Number(args.limit);
      const limit = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, maxResults) : results;
      const found = await backend.search(query, {
        limit,
        ...(context?.signal ? { signal: context.signal } : {}),
      });
      if (!Array.isArray(found)) return `Search failed: ${found.error}.`;
      return formatSearchHits(query, found, backend.name);
    },
  };
  const fetchPage: ToolDefinition = {
    name: 'fetch_page',
    description: `Open a web page by URL. Returns its title, text (${maxChars} characters at a time; pass offset to read on) and links.`,
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The page URL (http or https).' },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Character of the text to start from. Default 0.',
        },
      },
      required: ['url'],
      additionalProperties: false,
    },
    async execute(args, context) {
      const url = stringArgument(args.url);
      if (!url) return 'Error: fetch_page needs a url.';
      const offset = offsetArgument(args.offset);
      if (typeof offset === 'string') return `Error: ${offset}.`;
      const page = await backend.fetchPage(url, context?.signal ? { signal: context.signal } : {});
      if ('error' in page) return `Could not open ${url}: ${page.error}.`;
      return formatPage(page, offset, maxChars, 'fetch_page');
    },
  };
  return [search, fetchPage];
}
