/** At most `limit` holders at once; waiters are served in arrival order and may give up through a signal. */
export interface ConcurrencyGate {
  /** Takes a slot when one is free, at once; false when the caller must wait with `acquire`. */
  tryAcquire(): boolean;
  acquire(signal?: AbortSignal): Promise<void>;
  release(): void;
}

/**
 * A counting semaphore. A stream holds its slot until its last byte, which a promise-wrapping limiter (the
 * openai agent's p-limit) would also do, but a waiter here can leave the queue when its call is cut.
 */
export function createConcurrencyGate(limit: number): ConcurrencyGate {
  let held = 0;
  const waiters: { resolve: () => void; reject: (reason: unknown) => void; signal?: AbortSignal }[] = [];
  return {
    tryAcquire() {
      if (held >= limit || waiters.length > 0) return false;
      held++;
      return true;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (held < limit) {
        held++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject,
          ...(signal ? { signal } : {}),
        };
        const onAbort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    release() {
      const next = waiters.shift();
      // The slot passes straight to the next waiter.
      if (next) next.resolve();
      else held--;
    },
  };
}
