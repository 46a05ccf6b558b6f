// The internalize runs bench:paper leaves under its --out, as its readers (training-noise, retest) list them.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The finished runs of one budget under `dir` (`skillc-<budget>-<row>-seed<n>`, with a summary.json), by row
 * then seed; only the rows in `rows` when it is given.
 */
export function finishedRuns(dir, budget, rows) {
  const prefix = `skillc-${budget}-`;
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && existsSync(join(dir, name, 'summary.json')))
    .map((name) => {
      const m = /^(.*)-seed(\d+)$/.exec(name.slice(prefix.length));
      return m ? { name, row: m[1], seed: Number(m[2]) } : undefined;
    })
    .filter((r) => r && (!rows || rows.has(r.row)))
    .sort((a, b) => (a.row === b.row ? a.seed - b.seed : a.row < b.row ? -1 : 1));
}
