import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file the server may send, by its URL path. */
export interface StaticAsset {
  body: Uint8Array;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};

/** The page's own files: `public/` beside `dist/` when published, or beside `src/` in the repository. */
function publicDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ['..', join('..', '..')]) {
    const dir = join(here, up, 'public');
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  throw new Error(`@skillrl/serve: its public/ folder is missing next to ${here}; reinstall the package`);
}

function add(
  assets: Map<string, StaticAsset>,
  url: string,
  path: string,
  transform?: (text: string) => string,
): void {
  const type = TYPES[extname(path)];
  if (!type) return;
  const body = transform ? Buffer.from(transform(readFileSync(path, 'utf8'))) : readFileSync(path);
  assets.set(url, { body, type });
}

/**
 * TanStack Virtual's ES build leaves `process.env.NODE_ENV` for a bundler to replace (its debug timing
 * hooks). With no bundler the page would throw on `process`, so the server does the one replacement a
 * bundler's `define` would, once, when it reads the file.
 */
const forBrowser = (text: string): string => text.replaceAll('process.env.NODE_ENV', '"production"');

/**
 * Every file the page loads, read once when the app is made and served from memory by exact URL path. Being
 * a fixed table, no part of a request's path ever reaches the file system, so no `..` can lead anywhere. The
 * libraries are served as their packages publish them: Chart.js's browser build (as the report inlines it)
 * and TanStack Virtual's ES modules, imported by the page as they are — no bundler, no build chain.
 */
export function staticAssets(): Map<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  const pub = publicDir();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else add(assets, `/assets/${prefix}${entry.name}`, join(dir, entry.name));
    }
  };
  walk(pub, '');
  const index = assets.get('/assets/index.html');
  if (index) assets.set('/', index);
  const require = createRequire(import.meta.url);
  // Neither package exports its browser files as subpaths, so they are found next to their CommonJS entries.
  const chart = dirname(require.resolve('chart.js'));
  add(assets, '/vendor/chart.umd.min.js', join(chart, 'chart.umd.min.js'));
  const virtualEsm = join(dirname(require.resolve('@tanstack/virtual-core')), '..', 'esm');
  for (const name of readdirSync(virtualEsm)) {
    if (name.endsWith('.js')) add(assets, `/vendor/virtual-core/${name}`, join(virtualEsm, name), forBrowser);
  }
  return assets;
}
