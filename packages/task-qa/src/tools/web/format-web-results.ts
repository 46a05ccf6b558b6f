import { windowText } from '../tool-text.js';
import type { SearchHit, WebPage } from './web-page.js';

/** Links shown under a page at most; the rest are counted. */
export const MAX_LINKS_SHOWN = 150;

/** Search results as the model reads them: numbered, each with its title, URL and snippet. */
export function formatSearchHits(query: string, hits: readonly SearchHit[], backend: string): string {
  if (hits.length === 0) return `No results for ${JSON.stringify(query)} (${backend}).`;
  const lines = [`Search results for ${JSON.stringify(query)} (${backend}):`];
  hits.forEach((hit, i) => {
    lines.push('', `${i + 1}. ${hit.title || '(no title)'}`, `   ${hit.url}`);
    if (hit.snippet) lines.push(`   ${hit.snippet}`);
  });
  return lines.join('\n');
}

/**
 * A page as the model reads it: title, URL, the text (a window of `maxChars` from `offset`, the cut said
 * plainly), then its links as `[n] text -> url`. Links are listed with the first window only.
 */
export function formatPage(page: WebPage, offset: number, maxChars: number, tool: string): string {
  const shown = windowText(page.text, offset, maxChars, tool);
  const lines = [
    `Title: ${page.title || '(no title)'}`,
    `URL: ${page.url}`,
    '',
    shown.text || '[The page has no text.]',
  ];
  if (shown.note) lines.push('', shown.note);
  if (offset === 0) {
    if (page.links.length === 0) lines.push('', 'Links: none');
    else {
      lines.push('', `Links (${page.links.length}):`);
      page.links.slice(0, MAX_LINKS_SHOWN).forEach((link, i) => {
        lines.push(`[${i + 1}] ${link.text || '(no text)'} -> ${link.url}`);
      });
      if (page.links.length > MAX_LINKS_SHOWN) {
        lines.push(`… and ${page.links.length - MAX_LINKS_SHOWN} more links not shown`);
      }
    }
  }
  return lines.join('\n');
}
