import { convert, type HtmlToTextOptions } from 'html-to-text';
import type { PageLink, WebPage } from './web-page.js';

function resolveHref(href: string, base: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || /^(javascript|mailto|tel|data):/i.test(trimmed)) {
    return undefined;
  }
  try {
    const url = new URL(trimmed, base);
    url.hash = '';
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

type Elem = { attribs?: Record<string, string>; children?: Elem[]; type?: string; data?: string };

function textOf(elem: Elem): string {
  if (elem.type === 'text') return elem.data ?? '';
  return (elem.children ?? []).map(textOf).join('');
}

/**
 * An HTML document as a page: its visible text (html-to-text: block layout kept, tables as rows, no scripts
 * or styles, images dropped, links shown by their text), its `<title>` (else its first line of text), and every
 * http(s) link with the text it shows, resolved against `url` and listed once each in document order.
 */
export function htmlToPage(html: string, url: string): WebPage {
  const links: PageLink[] = [];
  const seen = new Set<string>();
  let title = '';
  const options: HtmlToTextOptions = {
    wordwrap: false,
    baseElements: { selectors: ['title', 'body'], returnDomByDefault: true },
    formatters: {
      pageTitle(elem) {
        if (!title)
          title = textOf(elem as Elem)
            .replace(/\s+/g, ' ')
            .trim();
      },
      collectLink(elem, walk, builder) {
        const href = (elem as Elem).attribs?.href;
        const target = href === undefined ? undefined : resolveHref(href, url);
        if (target && !seen.has(target)) {
          seen.add(target);
          links.push({
            url: target,
            text: textOf(elem as Elem)
              .replace(/\s+/g, ' ')
              .trim(),
          });
        }
        walk((elem as Elem).children as never, builder);
      },
    },
    selectors: [
      { selector: 'title', format: 'pageTitle' },
      { selector: 'a', format: 'collectLink' },
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
    ],
  };
  const text = convert(html, options)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!title) {
    const h1 = /^(.+)$/m.exec(text);
    title = h1?.[1]?.trim() ?? '';
  }
  return { url, title, text, links };
}
