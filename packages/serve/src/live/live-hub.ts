import type { RunCatalog } from '../server/run-catalog.js';
import { type RunSummary, summarizeRun } from '../views/run-summary.js';

/** A connected page: it gets `runs` (the list changed) and `run` (one run changed, its new row). */
export interface LiveClient {
  send(event: 'runs' | 'run' | 'ping', data: string): void;
}

export interface LiveHubOptions {
  /** How often the runs' files are looked at while a page is connected (default 1000 ms). */
  pollMs?: number;
  staleAfterMs: number;
}

/**
 * Follows the runs while at least one page listens, and tells each page what changed (server-sent events).
 * A tick costs a few stats per run (`RunReader.refresh` reads only when they changed, and then only what was
 * appended); a run's row is sent when it differs from the one last sent, which also catches a run going
 * quiet (running → stopped) without any file changing. With no page connected nothing is polled.
 */
export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sent = new Map<string, string>();
  private ids = '';
  private ticks = 0;
  private readonly pollMs: number;

  constructor(
    private readonly catalog: RunCatalog,
    private readonly options: LiveHubOptions,
  ) {
    this.pollMs = options.pollMs ?? 1000;
  }

  get listeners(): number {
    return this.clients.size;
  }

  add(client: LiveClient): () => void {
    this.clients.add(client);
    if (!this.timer) {
      // What the page already has is what it fetched: remember the rows as they are now, send changes only.
      this.snapshot();
      this.timer = setInterval(() => this.tick(), this.pollMs);
      this.timer.unref();
    }
    return () => {
      this.clients.delete(client);
      if (this.clients.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private rows(): RunSummary[] {
    return this.catalog.all().map((r) => summarizeRun(r, this.options.staleAfterMs));
  }

  private snapshot(): void {
    const rows = this.rows();
    this.ids = rows.map((r) => r.id).join('\n');
    this.sent.clear();
    for (const row of rows) this.sent.set(row.id, JSON.stringify(row));
  }

  private broadcast(event: 'runs' | 'run' | 'ping', data: string): void {
    for (const client of this.clients) {
      try {
        client.send(event, data);
      } catch {
        this.clients.delete(client);
      }
    }
  }

  /** One look at every run; public so that tests can drive it without waiting. */
  tick(): void {
    const rows = this.rows();
    const ids = rows.map((r) => r.id).join('\n');
    if (ids !== this.ids) {
      this.ids = ids;
      this.broadcast('runs', JSON.stringify(rows.map((r) => r.id)));
    }
    for (const row of rows) {
      const json = JSON.stringify(row);
      if (this.sent.get(row.id) === json) continue;
      this.sent.set(row.id, json);
      this.broadcast('run', json);
    }
    // A comment line now and then keeps proxies and idle timeouts from closing a quiet stream.
    if (++this.ticks % 15 === 0) this.broadcast('ping', '{}');
  }
}
