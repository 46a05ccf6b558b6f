import { isAbsolute, resolve } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import { createHttpSearchBackend, type HttpSearchBackendOptions } from './http-search-backend.js';
import { loadPageCache } from './page-cache.js';
import { createPageCacheBackend, type PageCacheBackendOptions } from './page-cache-backend.js';
import type { WebBackend } from './web-page.js';

/** A web backend as a config file gives it (plain JSON), or one built in code. */
export type WebBackendConfig =
  | WebBackend
  | ({ backend: 'page-cache'; path: string } & PageCacheBackendOptions)
  | ({ backend: 'http'; pages?: 'live' | 'none' | string } & Omit<HttpSearchBackendOptions, 'pages'>);

function isBackend(value: unknown): value is WebBackend {
  return (
    !!value &&
    typeof (value as WebBackend).search === 'function' &&
    typeof (value as WebBackend).fetchPage === 'function'
  );
}

/**
 * Builds the backend a config names: `{ backend: 'page-cache', path }` (offline, reproducible) or
 * `{ backend: 'http', api, baseURLEnv?, apiKeyEnv?, pages? }` (a live search API; `pages` a cache path to
 * serve pages offline, `none`, or `live`). Relative paths resolve against `baseDir`.
 */
export function createWebBackend(
  config: WebBackendConfig,
  baseDir = process.cwd(),
  option = 'web',
): WebBackend {
  if (isBackend(config)) return config;
  const at = (path: string) => (isAbsolute(path) ? path : resolve(baseDir, path));
  if (config.backend === 'page-cache') {
    if (typeof config.path !== 'string')
      throw new InvalidArgumentError(`${option}.path`, 'expected the page cache path');
    const { backend: _backend, path, ...rest } = config;
    return createPageCacheBackend(loadPageCache(at(path), `${option}.path`), rest);
  }
  if (config.backend === 'http') {
    const { backend: _backend, pages, ...rest } = config;
    const served =
      pages === undefined || pages === 'live' || pages === 'none'
        ? pages
        : loadPageCache(at(pages), `${option}.pages`);
    return createHttpSearchBackend({ ...rest, ...(served !== undefined ? { pages: served } : {}) });
  }
  throw new InvalidArgumentError(
    `${option}.backend`,
    `expected 'page-cache' or 'http', got ${JSON.stringify((config as { backend?: unknown }).backend)}`,
  );
}
