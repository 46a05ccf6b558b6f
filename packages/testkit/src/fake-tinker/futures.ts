import { encodeForwardBackwardOutput, PROTOBUF } from './fake-protobuf.js';
import { HttpError } from './http-error.js';
import type { FakeFutureFault, FakeTinkerOptions, FakeTinkerRequestInfo, FakeTinkerStats } from './types.js';

// Futures as the SDK's src/tinker/lib/api_future_impl.py reads them: `retrieve_future` answers `try_again`,
// a `RequestFailedResponse`, 410 (expired), or the result.

interface Future {
  id: string;
  polls: number;
  pendingPolls: number;
  /** When its work is done (`futures.workMs`). */
  readyAt: number;
  /** The route that made it (a forward pass's result can be answered as protobuf). */
  route: string;
  /** Settles once the work has run (a training call waits for its turn by `seq_id`). */
  done?: Promise<void>;
  fault?: FakeFutureFault;
  result?: unknown;
  error?: { error: string; category: 'user' | 'server' | 'unknown' };
}

/** A training run's order of work: the next `seq_id` due, and the calls that came ahead of their turn. */
export interface SeqOrder {
  nextSeq: number;
  early: Map<number, () => void>;
}

/** What a route handler answers: a JSON body, or protobuf bytes. */
export interface FakeAnswer {
  status: number;
  body: unknown;
  bytes?: Uint8Array;
}

export interface FutureStore {
  /**
   * A future for `work`, run at once, or in `seq_id` order when `order` is given; its request id. A `work`
   * that throws fails the future (an `HttpError` under 500 as a user error, as Tinker's do).
   */
  create(info: FakeTinkerRequestInfo, work: () => unknown, order?: { run: SeqOrder; seq: number }): string;
  /** `retrieve_future` of one request (`accept`: the poll's Accept header). */
  retrieve(requestId: string, accept: string): Promise<FakeAnswer>;
}

const pad = (n: number) => String(n).padStart(6, '0');

export function createFutureStore(
  options: Pick<FakeTinkerOptions, 'futures'> & {
    seqGapMs: number;
    wire: 'json' | 'protobuf' | 'both';
    stats: FakeTinkerStats;
  },
): FutureStore {
  const { stats, seqGapMs, wire } = options;
  const pendingPolls = options.futures?.pendingPolls ?? 1;
  const futures = new Map<string, Future>();
  let requests = 0;

  /**
   * Runs a training call's work in `seq_id` order, as the service does ("the server won't process later
   * chunks until the first one arrives"): a call ahead of its turn waits for the ones before it, or for
   * `seqGapMs` when one never comes (a client that skipped a number). A repeat of a past number runs at once.
   */
  function inOrder(run: SeqOrder, seq: number, work: () => void): Promise<void> {
    return new Promise<void>((resolve) => {
      const go = () => {
        run.early.delete(seq);
        work();
        resolve();
        run.nextSeq = Math.max(run.nextSeq, seq + 1);
        for (;;) {
          const next = run.early.get(run.nextSeq);
          if (!next) break;
          next();
        }
      };
      // In turn: worked just after the request is answered (as a service queues it), not before.
      if (seq <= run.nextSeq) {
        setImmediate(go);
        return;
      }
      run.early.set(seq, go);
      setTimeout(() => {
        if (run.early.get(seq) !== go) return;
        // The calls before it never came: run everything waiting up to it, in order.
        for (const k of [...run.early.keys()].sort((a, b) => a - b)) {
          if (k > seq) break;
          run.nextSeq = Math.max(run.nextSeq, k);
          run.early.get(k)?.();
        }
      }, seqGapMs);
    });
  }

  return {
    create(info, work, order) {
      requests += 1;
      const id = `req-${pad(requests)}`;
      const fault = options.futures?.plan?.({ ...info, requestId: id });
      const future: Future = {
        id,
        polls: 0,
        pendingPolls,
        readyAt: Date.now() + (options.futures?.workMs?.[info.route] ?? 0),
        route: info.route,
        ...(fault ? { fault } : {}),
      };
      stats.futures.created += 1;
      if (fault === 'fail-user' || fault === 'fail-server') {
        future.error = {
          error: `the ${info.route} request failed (planned fault)`,
          category: fault === 'fail-user' ? 'user' : 'server',
        };
      } else if (fault !== 'expire' && fault !== 'never') {
        const execute = () => {
          try {
            future.result = work();
          } catch (error) {
            // A request the server accepted but could not carry out: the future fails, as Tinker's do.
            const message = error instanceof Error ? error.message : String(error);
            future.error = {
              error: message,
              category: error instanceof HttpError && error.status < 500 ? 'user' : 'server',
            };
          }
        };
        if (order) future.done = inOrder(order.run, order.seq, execute);
        else execute();
      }
      futures.set(id, future);
      return id;
    },

    async retrieve(id, accept) {
      const f = futures.get(id);
      if (!f) throw new HttpError(404, 'Future not found');
      if (f.fault === 'expire') {
        stats.futures.expired += 1;
        futures.delete(id);
        throw new HttpError(410, `promise ${id} expired`);
      }
      if (f.done) await f.done;
      const early = f.readyAt - Date.now();
      // A poll before the work is done is held until it is (servers hold polls open too).
      if (early > 0) await new Promise((r) => setTimeout(r, early));
      f.polls += 1;
      if (f.fault === 'never' || f.polls <= f.pendingPolls) {
        stats.futures.tryAgain += 1;
        return { status: 200, body: { type: 'try_again', request_id: id, queue_state: 'active' } };
      }
      if (f.error) {
        stats.futures.failed += 1;
        return { status: 200, body: f.error };
      }
      stats.futures.resolved += 1;
      if (f.route === 'forward' || f.route === 'forward_backward') {
        if (wire !== 'json' && accept.includes(PROTOBUF)) {
          return {
            status: 200,
            body: undefined,
            bytes: encodeForwardBackwardOutput(f.result as Parameters<typeof encodeForwardBackwardOutput>[0]),
          };
        }
        if (wire === 'protobuf') {
          throw new HttpError(
            406,
            `the ${f.route} result is served as protobuf only here; ask with Accept: ${PROTOBUF}`,
          );
        }
      }
      return { status: 200, body: f.result };
    },
  };
}
