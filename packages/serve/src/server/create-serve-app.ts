import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { OutsideDirError } from '../errors/outside-dir-error.js';
import { LiveHub } from '../live/live-hub.js';
import { resolveInside } from '../store/inside-dir.js';
import type { RolloutFilter } from '../store/rollout-table.js';
import type { RunReader } from '../store/run-reader.js';
import { compareRuns } from '../views/compare-runs.js';
import { runDetail } from '../views/run-detail.js';
import { summarizeRun } from '../views/run-summary.js';
import { trajectoryView } from '../views/trajectory-view.js';
import { accessGuard } from './access-guard.js';
import { RunCatalog } from './run-catalog.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { staticAssets } from './static-assets.js';

export interface ServeAppOptions {
  /** The folder whose run directories are served (or one run directory). */
  dir: string;
  /** Required of every request when set (see `accessGuard`). */
  token?: string;
  /** How often live pages' runs are looked at (default 1000 ms). */
  pollMs?: number;
  /** A run without `run:end` whose streams have not changed for this long is shown stopped (default 5 min). */
  staleAfterMs?: number;
  /** How deep under `dir` runs are looked for (default 3). */
  maxDepth?: number;
}

export interface ServeApp {
  app: Hono;
  catalog: RunCatalog;
  live: LiveHub;
  /** Ends the live streams and stops polling. */
  close(): void;
}

/** A run file shown as text is cut here: a page has no use for a 100 MB stream (use the export for that). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_PAGE = 500;

function intParam(c: Context, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = Number(c.req.query(name));
  return Number.isInteger(v) && v >= 0 ? Math.min(v, max) : fallback;
}

function numberParam(c: Context, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return undefined;
  const v = Number(raw);
  return Number.isFinite(v) ? v : undefined;
}

function filterOf(c: Context): RolloutFilter {
  const filter: RolloutFilter = {};
  const text = (name: string) => {
    const v = c.req.query(name);
    return v === undefined || v === '' ? undefined : v;
  };
  const family = text('family');
  if (family) filter.family = family;
  const z = text('z');
  if (z === '0' || z === '1') filter.condition = Number(z) as 0 | 1;
  const unit = text('unit');
  if (unit) filter.unit = unit;
  const task = text('task');
  if (task) filter.task = task;
  const outcome = text('outcome');
  if (outcome === 'passed' || outcome === 'failed' || outcome === 'errored' || outcome === 'scored') {
    filter.outcome = outcome;
  }
  const min = numberParam(c, 'minReward');
  if (min !== undefined) filter.minReward = min;
  const max = numberParam(c, 'maxReward');
  if (max !== undefined) filter.maxReward = max;
  return filter;
}

/**
 * The web app of `skillrl serve` as a Hono app, without a listening socket (`startServe` adds one): the page
 * and its libraries, a JSON API over the runs under `dir`, and a server-sent-events stream of their changes.
 * Every response carries the security headers; every request passes the access guard first.
 */
export function createServeApp(options: ServeAppOptions): ServeApp {
  const root = resolve(options.dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new InvalidArgumentError(
      'dir',
      `${root} is not a folder; give the folder your runs are in (e.g. runs/)`,
    );
  }
  const staleAfterMs = options.staleAfterMs ?? 5 * 60_000;
  const catalog = new RunCatalog(root, { ...(options.maxDepth ? { maxDepth: options.maxDepth } : {}) });
  const live = new LiveHub(catalog, { staleAfterMs, ...(options.pollMs ? { pollMs: options.pollMs } : {}) });
  const assets = staticAssets();
  const closers = new Set<() => void>();
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });
  app.use('*', accessGuard(options.token ? { token: options.token } : {}));
  app.onError((error, c) => {
    if (OutsideDirError.isInstance(error)) return c.json({ error: error.message }, 403);
    return c.json({ error: (error as Error).message }, 500);
  });

  const runOf = (c: Context): RunReader | Response => {
    const id = c.req.query('run') ?? '';
    const reader = catalog.get(id);
    return reader ?? c.json({ error: `no run "${id}" under the served folder` }, 404);
  };
  const api = (c: Context, body: unknown) => {
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  };

  app.get('/api/runs', (c) =>
    api(c, {
      root,
      runs: catalog.all().map((r) => summarizeRun(r, staleAfterMs)),
    }),
  );
  app.get('/api/run', (c) => {
    const reader = runOf(c);
    return reader instanceof Response ? reader : api(c, runDetail(reader, staleAfterMs));
  });
  app.get('/api/rollouts', (c) => {
    const reader = runOf(c);
    if (reader instanceof Response) return reader;
    const page = reader
      .rollouts()
      .page(filterOf(c), intParam(c, 'offset', 0), intParam(c, 'limit', 100, MAX_PAGE));
    return api(c, page);
  });
  app.get('/api/trajectory', (c) => {
    const reader = runOf(c);
    if (reader instanceof Response) return reader;
    const id = c.req.query('id') ?? '';
    const table = reader.rollouts();
    const trajectory = table.trajectory(id);
    if (!trajectory) return c.json({ error: `no rollout "${id}" in run "${reader.id}" (yet)` }, 404);
    return api(c, {
      run: reader.id,
      row: table.row(id) ?? null,
      trajectory: trajectoryView(trajectory),
      partners: table.partners(id).slice(0, 50),
    });
  });
  app.get('/api/skills', (c) => {
    const reader = runOf(c);
    if (reader instanceof Response) return reader;
    const bank = reader.skills();
    return api(c, {
      run: reader.id,
      source: bank.source,
      ...(bank.problem ? { problem: bank.problem } : {}),
      versions: bank.versions,
    });
  });
  app.get('/api/skill', (c) => {
    const reader = runOf(c);
    if (reader instanceof Response) return reader;
    const detail = reader.skills().detail(intParam(c, 'index', -1));
    return detail ? api(c, detail) : c.json({ error: 'no such skill version' }, 404);
  });
  app.get('/api/file', (c) => {
    const reader = runOf(c);
    if (reader instanceof Response) return reader;
    const path = c.req.query('path') ?? '';
    const real = resolveInside(reader.dir, catalog.realRoot, path);
    if (!existsSync(real) || !statSync(real).isFile()) return c.json({ error: `no file "${path}"` }, 404);
    const size = statSync(real).size;
    if (size > MAX_FILE_BYTES) {
      return c.json(
        { error: `"${path}" is ${size} bytes; the page shows files up to ${MAX_FILE_BYTES}` },
        413,
      );
    }
    c.header('Cache-Control', 'no-store');
    // Always plain text, whatever the file (report.html included): run content is shown, never rendered.
    return c.body(readFileSync(real), 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });
  app.get('/api/compare', (c) => {
    const ids = c.req.queries('run') ?? [];
    const readers = ids.map((id) => catalog.get(id));
    const missing = ids.filter((_, i) => !readers[i]);
    if (missing.length > 0)
      return c.json({ error: `no run ${missing.map((m) => `"${m}"`).join(', ')}` }, 404);
    return api(c, compareRuns(readers as RunReader[], staleAfterMs));
  });
  app.get('/api/live', (c) =>
    streamSSE(c, async (stream) => {
      let done: () => void = () => {};
      const ended = new Promise<void>((r) => {
        done = r;
      });
      const remove = live.add({
        send: (event, data) => {
          void stream.writeSSE({ event, data });
        },
      });
      closers.add(done);
      stream.onAbort(() => done());
      await stream.writeSSE({ event: 'ready', data: '{}' });
      await ended;
      remove();
      closers.delete(done);
    }),
  );
  app.get('*', (c) => {
    const asset = assets.get(c.req.path);
    if (!asset) return c.text('Not found', 404);
    c.header('Cache-Control', 'no-cache');
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': asset.type });
  });

  return {
    app,
    catalog,
    live,
    close() {
      live.stop();
      for (const done of [...closers]) done();
    },
  };
}
