import type { Redis } from 'ioredis';

export interface RedisLinkOptions {
  /**
   * How long a connection may stay down (refused from the start, or lost and not back) before a call
   * waiting on it gives up with `unavailable`'s error.
   */
  timeoutMs: number;
  /** The error a call gives up with: `downMs` is how long the connection has been down. */
  unavailable: (downMs: number, lastError: string | undefined) => Error;
  /** Every call also gives up, with the signal's reason, once this aborts (the session's SIGINT/SIGTERM). */
  signal?: AbortSignal;
}

/**
 * Whether Redis is reachable, as the connections it watches see it, and calls that wait on it no longer
 * than that allows. ioredis queues a command while its connection is down and sends it once it is back, so
 * a call to an unreachable Redis would otherwise wait for ever, deaf to Ctrl-C: `guard` lets it wait through
 * a short outage (a restart), but ends it once a connection has been down for `timeoutMs`, or at once
 * when a signal aborts.
 */
export class RedisLink {
  private readonly down = new Map<Redis, number>();
  private readonly lastErrors = new Map<Redis, string>();
  private readonly waiters = new Set<(error: Error) => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RedisLinkOptions) {}

  /** Follows `client`'s state from now on; a client not yet connected counts as down from now. */
  watch(client: Redis): this {
    if (client.status !== 'ready') this.down.set(client, Date.now());
    const lost = () => {
      if (!this.down.has(client)) this.down.set(client, Date.now());
      this.schedule();
    };
    client.on('ready', () => {
      this.down.delete(client);
      this.lastErrors.delete(client);
      this.schedule();
    });
    client.on('close', lost);
    client.on('end', lost);
    client.on('error', (error: Error) => {
      this.lastErrors.set(client, error.message);
    });
    return this;
  }

  /** Every watched connection is up. */
  up(): boolean {
    return this.down.size === 0;
  }

  /** The error calls give up with now, if a connection has been down for `timeoutMs` already. */
  failure(): Error | undefined {
    const now = Date.now();
    for (const [client, since] of this.down) {
      if (now - since >= this.options.timeoutMs) {
        return this.options.unavailable(now - since, this.lastErrors.get(client));
      }
    }
    return undefined;
  }

  /**
   * `op`'s outcome, unless Redis stays unreachable past the timeout or a signal aborts first (the link's
   * or `signal`): then it rejects with that error and `op` is left to settle on its own (it is disconnected
   * later, which rejects it; its rejection is handled here).
   */
  guard<T>(op: Promise<T> | (() => Promise<T>), signal?: AbortSignal): Promise<T> {
    const signals = [this.options.signal, signal].filter((s): s is AbortSignal => s !== undefined);
    const aborted = signals.find((s) => s.aborted);
    const failed = aborted ? undefined : this.failure();
    if (aborted || failed) {
      // Never started: nothing is left waiting in ioredis's offline queue.
      if (typeof op !== 'function') op.catch(() => {});
      return Promise.reject(aborted ? aborted.reason : failed);
    }
    const running = typeof op === 'function' ? op() : op;
    return new Promise<T>((resolve, reject) => {
      const stop = (error: unknown) => {
        cleanup();
        reject(error);
      };
      const onAbort = (event: Event) => stop((event.target as AbortSignal).reason);
      const cleanup = () => {
        this.waiters.delete(stop);
        for (const s of signals) s.removeEventListener('abort', onAbort);
        this.schedule();
      };
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(stop);
      this.schedule();
      running.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error: unknown) => {
          cleanup();
          reject(error);
        },
      );
    });
  }

  /** Ends every call still waiting (the queue is closing) and stops the timer. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const closed = new Error('the episode queue was closed');
    for (const stop of [...this.waiters]) stop(closed);
  }

  /** A timer for the moment the oldest outage reaches the timeout, only while some call waits. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiters.size === 0 || this.down.size === 0) return;
    const oldest = Math.min(...this.down.values());
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const error = this.failure();
        if (!error) return this.schedule();
        for (const stop of [...this.waiters]) stop(error);
      },
      Math.max(0, oldest + this.options.timeoutMs - Date.now()),
    );
  }
}
