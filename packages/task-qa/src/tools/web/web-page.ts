import type { JsonlProblem } from '../../jsonl/jsonl-problem.js';

/** One link on a page: where it goes and the text it shows (the "button" WebWalkerQA's agent clicks). */
export interface PageLink {
  url: string;
  text: string;
}

/** A page as the web tools show it: the unit of the offline page cache and of a live fetch. */
export interface WebPage {
  url: string;
  title: string;
  text: string;
  links: PageLink[];
}

/** One search result. */
export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
}

export interface WebSearchOptions {
  /** Results wanted (a backend may return fewer). */
  limit: number;
  signal?: AbortSignal;
}

/**
 * Where `web_search` and `fetch_page` get their answers: the offline page cache (reproducible), or a live
 * search API and live page fetches. A page that cannot be had comes back as `{ error }` in words the model
 * can act on; a thrown error is a broken backend and ends the episode.
 */
export interface WebBackend {
  /** Said in tool results and in run notes: `page-cache (412 pages)`, `searxng`. */
  readonly name: string;
  /** What was wrong with the backend's data (a page cache's bad lines), for the adapter to report. */
  readonly problems?: readonly JsonlProblem[];
  search(query: string, options: WebSearchOptions): Promise<SearchHit[] | { error: string }>;
  fetchPage(url: string, options?: { signal?: AbortSignal }): Promise<WebPage | { error: string }>;
}
