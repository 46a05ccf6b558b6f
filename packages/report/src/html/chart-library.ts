import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/**
 * The Chart.js browser build (UMD, defines `window.Chart`), read from the installed package so the page
 * carries it inline and needs no network. Chart.js does not export its dist folder, so the path is found
 * from the CommonJS entry next to it.
 */
export function chartLibrarySource(): string {
  if (cached === undefined) {
    const require = createRequire(import.meta.url);
    const entry = require.resolve('chart.js');
    cached = readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
  }
  return cached;
}
