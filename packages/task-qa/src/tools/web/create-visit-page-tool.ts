import type { Task, ToolDefinition } from '@skillrl/core';
import { DEFAULT_TOOL_MAX_CHARS, offsetArgument, stringArgument } from '../tool-text.js';
import { formatPage } from './format-web-results.js';
import { normalizeUrl } from './normalize-url.js';
import type { PageCache } from './page-cache.js';

export interface VisitPageToolOptions {
  pages: PageCache;
  /** Characters of page text per call. Default 20,000. */
  maxChars?: number;
  /** Relative URLs resolve against this. Default: `task.metadata.rootUrl` (WebWalkerQA's loader sets it). */
  rootOf?(task: Task): string | undefined;
}

const defaultRoot = (task: Task): string | undefined => {
  const value = task.metadata?.rootUrl;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * WebWalkerQA's tool: `visit_page({ url, offset? })` opens a page of the offline page cache and returns its
 * text and its links (the buttons the benchmark's agent clicks: each is listed with the URL to visit next).
 * A relative URL resolves against the task's root URL. Only cached pages exist: the tool never goes online.
 */
export function createVisitPageTool(options: VisitPageToolOptions): ToolDefinition {
  const maxChars = options.maxChars ?? DEFAULT_TOOL_MAX_CHARS;
  const rootOf = options.rootOf ?? defaultRoot;
  return {
    name: 'visit_page',
    description:
      'Visit a page of the website by URL (absolute, or relative to the start page). Returns the page text ' +
      `(${maxChars} characters at a time; pass offset to read on) and its links, each with the URL to visit next.`,
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The page URL, e.g. one listed under Links.' },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Character of the text to start from. Default 0.',
        },
      },
      required: ['url'],
      additionalProperties: false,
    },
    execute(args, context) {
      const given = stringArgument(args.url);
      if (!given) return 'Error: visit_page needs a url.';
      const offset = offsetArgument(args.offset);
      if (typeof offset === 'string') return `Error: ${offset}.`;
      const root = context?.task ? rootOf(context.task) : undefined;
      const url = normalizeUrl(given, root);
      if (!url) return `Error: ${JSON.stringify(given)} is not a URL${root ? ` (relative to ${root})` : ''}.`;
      const page = options.pages.get(url);
      if (!page) {
        return `Page not found: ${url} is not in the offline copy of the site (${options.pages.size} pages). Visit a link listed on a page you have seen.`;
      }
      return formatPage(page, offset, maxChars, 'visit_page');
    },
  };
}
