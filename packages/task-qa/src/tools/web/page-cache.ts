import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidArgumentError, type JsonObject } from '@skillrl/core';
import { isJsonObject } from '../../jsonl/field-path.js';
import type { JsonlProblem } from '../../jsonl/jsonl-problem.js';
import { readJsonl } from '../../jsonl/read-jsonl.js';
import { htmlToPage } from './html-to-page.js';
import { normalizeUrl, urlVariants } from './normalize-url.js';
import type { PageLink, WebPage } from './web-page.js';

/**
 * Pages kept offline, looked up by URL: the reproducible stand-in for the live web that `web_search`,
 * `fetch_page` and WebWalkerQA's `visit_page` read. See `loadPageCache` for the on-disk format.
 */
export interface PageCache {
  /** Where it was read from, or `memory`. */
  readonly source: string;
  readonly size: number;
  /** The page stored under `url` (normalised; http/https and `www.` variants tried). */
  get(url: string): WebPage | undefined;
  /** Every page, in the order read. */
  pages(): readonly WebPage[];
  /** Pages left out or fixed while reading (bad lines, duplicate URLs, missing text). */
  readonly problems: readonly JsonlProblem[];
}

/** One page record as written on disk. Either `text` or `html` is required. */
export interface PageRecord {
  url: string;
  title?: string;
  text?: string;
  /** Raw HTML: title, text and links are extracted from it where the record does not give them. */
  html?: string;
  /** `{ url, text? }` objects or bare URL strings; relative URLs resolve against the page's `url`. */
  links?: (string | { url: string; text?: string })[];
}

function linksOf(value: unknown, base: string): PageLink[] | string {
  if (!Array.isArray(value)) return 'expected an array of links';
  const links: PageLink[] = [];
  const seen = new Set<string>();
  for (const item of value) {
    const href = typeof item === 'string' ? item : isJsonObject(item) ? item.url : undefined;
    if (typeof href !== 'string') return 'each link is a URL string or { url, text }';
    const url = normalizeUrl(href, base);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const text = isJsonObject(item) && typeof item.text === 'string' ? item.text.trim() : '';
    links.push({ url, text });
  }
  return links;
}

/** A record as a page, or the reason it cannot be one. */
export function pageFromRecord(record: JsonObject): WebPage | string {
  if (typeof record.url !== 'string') return 'url: expected a string';
  const url = normalizeUrl(record.url);
  if (!url) return `url: expected an absolute http(s) URL, got ${JSON.stringify(record.url)}`;
  const fromHtml = typeof record.html === 'string' ? htmlToPage(record.html, url) : undefined;
  const text = typeof record.text === 'string' ? record.text : fromHtml?.text;
  if (text === undefined) return 'text: missing (give text or html)';
  let links: PageLink[] = fromHtml?.links ?? [];
  if (record.links !== undefined) {
    const read = linksOf(record.links, url);
    if (typeof read === 'string') return `links: ${read}`;
    links = read;
  }
  const title = typeof record.title === 'string' ? record.title.trim() : (fromHtml?.title ?? '');
  return { url, title, text, links };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (/\.(jsonl|json)$/i.test(entry.name)) out.push(path);
  }
  return out;
}

interface Located {
  record: JsonObject;
  file: string;
  line: number;
}

/** Turns records into pages (reporting the bad ones and repeated URLs) and indexes them by URL. */
function indexPages(located: readonly Located[], source: string, problems: JsonlProblem[]): PageCache {
  const byUrl = new Map<string, WebPage>();
  const ordered: WebPage[] = [];
  for (const { record, file, line } of located) {
    const page = pageFromRecord(record);
    if (typeof page === 'string') {
      problems.push({ file, line, severity: 'error', message: page });
      continue;
    }
    if (byUrl.has(page.url)) {
      problems.push({
        file,
        line,
        field: 'url',
        severity: 'warning',
        message: `duplicate page ${page.url}; the first one is kept`,
      });
      continue;
    }
    byUrl.set(page.url, page);
    ordered.push(page);
  }
  return {
    source,
    size: ordered.length,
    problems,
    pages: () => ordered,
    get(url) {
      const key = normalizeUrl(url);
      if (!key) return undefined;
      const exact = byUrl.get(key);
      if (exact) return exact;
      for (const variant of urlVariants(key)) {
        const page = byUrl.get(variant);
        if (page) return page;
      }
      return undefined;
    },
  };
}

/** A page cache over records already in memory (a crawl, a test); `problems` lists the ones left out. */
export function createPageCache(records: readonly PageRecord[], source = 'memory'): PageCache {
  const located = records.map((record, i) => ({
    record: record as unknown as JsonObject,
    file: source,
    line: i + 1,
  }));
  return indexPages(located, source, []);
}

/**
 * Reads a page cache from disk. The format:
 *
 * - a `.jsonl` file, one page per line, or
 * - a folder: every `*.jsonl` (one page per line) and `*.json` (one page, or an array of pages) file under
 *   it, in sorted path order;
 *
 * where a page is `{ "url": "https://…", "title"?: "…", "text"?: "…", "html"?: "<html>…", "links"?:
 * [{ "url": "…", "text"?: "…" } | "…"] }` — `text` or `html` required; from `html` the title, visible text
 * and links are extracted where the record does not give them. URLs are normalised (`normalizeUrl`); a
 * repeated URL keeps its first page. Bad records are left out and listed in `problems`, never dropped in
 * silence; a missing path is an `InvalidArgumentError`.
 */
export function loadPageCache(path: string, option = 'pages'): PageCache {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (cause) {
    throw new InvalidArgumentError(option, `cannot read the page cache ${path}; check the path`, { cause });
  }
  const files = isDir ? filesUnder(path) : [path];
  const located: Located[] = [];
  const problems: JsonlProblem[] = [];
  for (const file of files) {
    const name = isDir ? relative(path, file) || file : file;
    if (/\.json$/i.test(file)) {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
      } catch (cause) {
        const reason = (cause as Error).message;
        problems.push({ file: name, line: 1, severity: 'error', message: `not valid JSON (${reason})` });
        continue;
      }
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, i) => {
        if (isJsonObject(item)) located.push({ record: item, file: name, line: i + 1 });
        else problems.push({ file: name, line: i + 1, severity: 'error', message: 'expected a page object' });
      });
    } else {
      const read = readJsonl(file, option);
      problems.push(...read.problems.map((p) => ({ ...p, file: name })));
      for (const row of read.rows) located.push({ record: row.value, file: name, line: row.line });
    }
  }
  return indexPages(located, path, problems);
}
