import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { redactSecrets } from '@skillrl/core';
import { extractPdfText } from '../files/extract-document-text.js';
import { htmlToPage } from './html-to-page.js';
import { normalizeUrl } from './normalize-url.js';
import type { WebPage } from './web-page.js';

export interface LiveFetchOptions {
  signal?: AbortSignal;
  /** Per page, redirects included. Default 20,000 ms. */
  timeoutMs?: number;
  /** Bytes read at most; a longer body is cut there (and the page says so). Default 5 MB. */
  maxBytes?: number;
  /**
   * Let the model's URLs reach loopback, private, link-local and other non-public addresses. Default false:
   * `fetch_page` is driven by the model, and an agent on a machine inside a network should not become a way
   * to read that network (or a cloud metadata endpoint). Tests against a local server turn it on.
   */
  allowPrivateNetwork?: boolean;
  /** Sent as `User-Agent`. */
  userAgent?: string;
}

const MAX_REDIRECTS = 5;

/** Addresses a model-chosen URL may not reach unless `allowPrivateNetwork`. */
const NON_PUBLIC = (() => {
  const list = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const) {
    list.addSubnet(net, bits, 'ipv4');
  }
  for (const [net, bits] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(net, bits, 'ipv6');
  }
  return list;
})();

function isNonPublic(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  return family === 4
    ? NON_PUBLIC.check(address, 'ipv4')
    : family === 6
      ? NON_PUBLIC.check(address, 'ipv6')
      : true;
}

/** `undefined` when the host may be fetched, else why not. */
async function refusedHost(url: URL): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`;
  if (isIP(host)) return isNonPublic(host) ? `${host} is a non-public address` : undefined;
  const addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  const blocked = addresses.find(isNonPublic);
  return blocked ? `${host} resolves to the non-public address ${blocked}` : undefined;
}

async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      cut = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, cut };
}

function charsetOf(contentType: string): string {
  const match = /charset\s*=\s*"?([\w-]+)/i.exec(contentType);
  try {
    return new TextDecoder(match?.[1] ?? 'utf-8').encoding;
  } catch {
    return 'utf-8';
  }
}

/**
 * GETs a page from the live web as a `WebPage`: HTML as its visible text and links, plain text and JSON as
 * they are, PDF as its text; anything else (images, archives) is refused by content type. Redirects are
 * followed by hand (at most 5), each hop checked against `allowPrivateNetwork`. Failures — a bad URL, a
 * refused host, a non-2xx status, a timeout — come back as `{ error }` for the model; nothing is thrown but
 * an abort of `signal`.
 */
export async function fetchLivePage(
  url: string,
  options: LiveFetchOptions = {},
): Promise<WebPage | { error: string }> {
  const start = normalizeUrl(url);
  if (!start) return { error: `${JSON.stringify(url)} is not an http(s) URL` };
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let current = new URL(start);
  try {
    for (let hop = 0; ; hop++) {
      if (!options.allowPrivateNetwork) {
        const refused = await refusedHost(current);
        if (refused) return { error: `not fetched: ${refused}` };
      }
      const response = await fetch(current, {
        redirect: 'manual',
        signal,
        headers: {
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.5',
          ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
        },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) return { error: `more than ${MAX_REDIRECTS} redirects from ${start}` };
        current = new URL(response.headers.get('location') as string, current);
        if (current.protocol !== 'http:' && current.protocol !== 'https:') {
          return { error: `redirected to a non-http URL (${current.protocol})` };
        }
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { error: `${current.href} answered HTTP ${response.status} ${response.statusText}`.trim() };
      }
      const type = (response.headers.get('content-type') ?? '').toLowerCase();
      const { bytes, cut } = await readCapped(response, options.maxBytes ?? 5 * 1024 * 1024);
      const note = cut ? '\n\n[The page was longer than the download limit; the rest was not read.]' : '';
      const finalUrl = normalizeUrl(current.href) ?? current.href;
      if (
        type.includes('html') ||
        (type === '' && /^\s*</.test(new TextDecoder().decode(bytes.subarray(0, 64))))
      ) {
        const page = htmlToPage(new TextDecoder(charsetOf(type)).decode(bytes), finalUrl);
        return { ...page, text: page.text + note };
      }
      if (type.includes('pdf')) {
        if (cut) return { error: `the PDF at ${finalUrl} is larger than the download limit` };
        const { text } = await extractPdfText(bytes);
        return { url: finalUrl, title: '', text, links: [] };
      }
      if (type.startsWith('text/') || type.includes('json') || type.includes('xml')) {
        return {
          url: finalUrl,
          title: '',
          text: new TextDecoder(charsetOf(type)).decode(bytes) + note,
          links: [],
        };
      }
      return {
        error: `${finalUrl} is ${type || 'of an unknown content type'}, which fetch_page cannot show as text`,
      };
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const e = error as Error & { cause?: { code?: string } };
    const why = timeout.aborted
      ? `timed out after ${options.timeoutMs ?? 20_000} ms`
      : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`;
    return { error: redactSecrets(`fetching ${current.href} failed: ${why}`) };
  }
}
