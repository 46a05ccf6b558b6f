import {
  type Agent,
  InvalidArgumentError,
  redactSecrets,
  type TaskAdapter,
  type Verifier,
} from '@skillrl/core';
import { collectRollouts, type PlannedEpisode } from '@skillrl/rollout';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis, describeRedisUrl, endRedis } from './connect-redis.js';
import { type EpisodeJobData, type EpisodeJobResult, JOB_NAME } from './episode-job.js';
import { blobKey, DEFAULT_QUEUE, KEY_PREFIX, sha256 } from './queue-keys.js';
import { throttleErrors } from './throttle-errors.js';

/** What a worker runs an episode with: the run's adapter and agent, built from the run's blobs. */
export interface EpisodeParts {
  adapter: Pick<TaskAdapter, 'createEnvironment' | 'verifier'> & Partial<Pick<TaskAdapter, 'tools'>>;
  agent: Agent;
  verifier?: (task: PlannedEpisode['task']) => Verifier;
}

/** The blobs a job names, fetched from Redis and checked against their hashes. */
export interface EpisodeBlobs {
  context: Buffer;
  state?: Buffer;
}

export interface WorkerJobEvent {
  kind: 'done' | 'failed';
  run: string;
  episodeId: string;
  ms: number;
  reward?: number;
  error?: string;
}

export interface RolloutWorkerOptions {
  redis: string;
  queue?: string;
  /**
   * Jobs in flight in this process. Default 2: even for a CPU-bound agent the second job runs while the first
   * one's result and the next job travel to and from Redis (measured: 0.6–2.6 ms of overhead per episode at 2,
   * 2.4–3.1 ms at 1); raise it for LLM-bound episodes.
   */
  concurrency?: number;
  /**
   * Builds the parts from a run's blobs (the orchestrator resolves its config's components, as a session
   * does). Called once per (components, state) pair; the result is cached (`cacheSize`).
   */
  load(blobs: EpisodeBlobs): Promise<EpisodeParts>;
  /** Parts kept built, newest first (default 4: a trained policy has a new state every unit). */
  cacheSize?: number;
  /**
   * How long a job's lock lasts without renewal (default 60 s). BullMQ renews it on a timer, which cannot
   * fire while an episode keeps the event loop busy (a CPU-bound policy): the lock must outlast the longest
   * such stretch, or another worker takes the job as stalled and the episode runs twice (stored once, but
   * computed twice). A killed worker's job runs again after about this long.
   */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (a killed worker's) to put back (default lock / 2, at most 5 s). */
  stalledIntervalMs?: number;
  onJob?: (event: WorkerJobEvent) => void;
  /**
   * Redis and worker errors (already redacted), each text at most once per 30 s with a count of repeats,
   * and a line when Redis is lost and when it is back.
   */
  onError?: (message: string) => void;
}

export interface RolloutWorker {
  readonly queue: string;
  /** Resolves once the worker is connected and listening. */
  waitUntilReady(): Promise<void>;
  /**
   * Finishes the jobs in flight, then disconnects. With `force`, or while Redis is unreachable (their
   * results could not be delivered), it gives them up at once instead: their episodes are cancelled and
   * their jobs run again elsewhere once their locks lapse. Either way no connection is left reconnecting.
   */
  close(force?: boolean): Promise<void>;
  /** Redis answers this worker now. */
  reachable(): boolean;
  /** Episodes running now. */
  inFlight(): number;
  processed(): number;
}

/** Longest a forced close waits for BullMQ to wind down before the connections are simply cut. */
const FORCE_CLOSE_MS = 1000;

/**
 * A rollout worker: takes episode jobs off the BullMQ queue, builds the run's parts from the blobs each job
 * names (cached), runs the episode through rollout's `collectRollouts` exactly as the in-process pool would
 * (same runner, same seed, same error trajectories), and returns the trajectory as the job's result. A job
 * whose worker dies is put back by BullMQ's stalled-job check and runs elsewhere; the session keeps one
 * trajectory per rollout id either way.
 */
export function startRolloutWorker(options: RolloutWorkerOptions): RolloutWorker {
  const name = options.queue ?? DEFAULT_QUEUE;
  const concurrency = options.concurrency ?? 2;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError('concurrency', `expected an integer >= 1, got ${concurrency}`);
  }
  const lockDuration = options.lockDurationMs ?? 60_000;
  if (!Number.isFinite(lockDuration) || lockDuration < 100) {
    throw new InvalidArgumentError('lockDurationMs', `expected milliseconds >= 100, got ${lockDuration}`);
  }
  // The check is one script per interval for all workers together (BullMQ keeps a key for it): checking
  // often costs little and puts a killed worker's job back soon after its lock lapses.
  const stalledInterval =
    options.stalledIntervalMs ?? Math.max(500, Math.min(5000, Math.floor(lockDuration / 2)));
  const cacheSize = options.cacheSize ?? 4;
  const shownUrl = describeRedisUrl(options.redis);
  // Once stopping, no connection reconnects: a retry timer would keep the process alive while Redis is down.
  let stopping = false;
  // Every connection, BullMQ's copies for blocking reads included, so that a stop can end each one.
  const clients: Redis[] = [];
  const connect = () => {
    const client = connectRedis(options.redis, '--redis', {
      stopped: () => stopping,
      onCopy: (copy) => clients.push(copy),
    });
    clients.push(client);
    return client;
  };
  const blobs = connect();
  const throttled = throttleErrors((message) => options.onError?.(message));
  const report = (error: unknown) =>
    throttled(redactSecrets(error instanceof Error ? error.message : String(error)));
  blobs.on('error', report);
  const parts = new Map<string, Promise<EpisodeParts>>();
  let processed = 0;
  let running = 0;
  // Aborted when the worker gives its episodes up (a forced close): they end now instead of running on.
  const giveUp = new AbortController();

  const blob = async (hash: string): Promise<Buffer> => {
    const data = await blobs.getBuffer(blobKey(name, hash));
    if (!data) {
      // Retried: the session puts blobs back when it finds Redis lost its jobs.
      throw new Error(`blob ${hash.slice(0, 12)} is not in Redis (restarted without persistence?)`);
    }
    if (sha256(data) !== hash)
      throw new UnrecoverableError(`blob ${hash.slice(0, 12)} does not match its hash`);
    return data;
  };
  const partsFor = (context: string, state: string | undefined): Promise<EpisodeParts> => {
    const key = `${context}/${state ?? ''}`;
    let entry = parts.get(key);
    if (entry) {
      parts.delete(key);
      parts.set(key, entry);
      return entry;
    }
    entry = (async () => {
      const loaded: EpisodeBlobs = { context: await blob(context) };
      if (state) loaded.state = await blob(state);
      return options.load(loaded);
    })();
    // A failed build is not cached: the next job tries again.
    entry.catch(() => parts.delete(key));
    parts.set(key, entry);
    while (parts.size > cacheSize) parts.delete(parts.keys().next().value as string);
    return entry;
  };

  const connection = connect();
  connection.on('error', report);
  // Redis lost and back, said once each (its errors are throttled meanwhile).
  let reachable = false;
  let saidLost = false;
  let lastError = '';
  // Ends a graceful close early: Redis lost (results could not be delivered), or a forced close asked for.
  let interrupt: (() => void) | undefined;
  connection.on('error', (error: Error) => {
    lastError = redactSecrets(error.message);
  });
  connection.on('ready', () => {
    if (saidLost) options.onError?.(`Redis at ${shownUrl} is reachable again`);
    saidLost = false;
    lastError = '';
    reachable = true;
  });
  connection.on('close', () => {
    if (!reachable) return;
    reachable = false;
    interrupt?.();
    if (!stopping) {
      saidLost = true;
      options.onError?.(
        `Redis at ${shownUrl} is unreachable${lastError ? ` (${lastError})` : ''}; reconnecting every second. Episodes in flight are delivered once it is back; SIGINT/SIGTERM stops this worker at once meanwhile`,
      );
    }
  });
  const worker = new Worker<EpisodeJobData, EpisodeJobResult>(
    name,
    async (job: Job<EpisodeJobData, EpisodeJobResult>) => {
      const data = job.data;
      if (job.name !== JOB_NAME || data?.v !== 1) {
        throw new UnrecoverableError(
          `not a skillrl episode job (name ${job.name}, format ${String(data?.v)})`,
        );
      }
      const started = Date.now();
      running++;
      let trajectory: EpisodeJobResult;
      try {
        const { adapter, agent, verifier } = await partsFor(data.context, data.state);
        const signal =
          data.timeoutMs !== undefined
            ? AbortSignal.any([giveUp.signal, AbortSignal.timeout(data.timeoutMs)])
            : giveUp.signal;
        const trajectories = await collectRollouts({
          plan: [data.episode],
          adapter,
          agent,
          concurrency: 1,
          ...(verifier ? { verifier } : {}),
          ...(data.generation !== undefined ? { generation: data.generation } : {}),
          ...(data.maxSteps !== undefined ? { maxSteps: data.maxSteps } : {}),
          signal,
        }).collect();
        trajectory = trajectories[0] as EpisodeJobResult;
      } finally {
        running--;
      }
      processed++;
      options.onJob?.({
        kind: 'done',
        run: data.run,
        episodeId: data.episode.id,
        ms: Date.now() - started,
        reward: trajectory.reward,
      });
      return trajectory;
    },
    {
      connection,
      prefix: KEY_PREFIX,
      concurrency,
      lockDuration,
      stalledInterval,
      // A worker killed twice on the same job is not the job's fault.
      maxStalledCount: 10,
    },
  );
  worker.on('error', report);
  worker.on('failed', (job, error) => {
    if (!job) return;
    options.onJob?.({
      kind: 'failed',
      run: job.data.run,
      episodeId: job.data.episode.id,
      ms: 0,
      error: redactSecrets(error.message),
    });
  });

  // BullMQ leaves a connection it was given open; its copies are ended too, whatever their state.
  const cut = () => {
    for (const client of clients) endRedis(client);
  };
  let closing: Promise<void> | undefined;
  // What a task model holds open (a program agent's proxy, MCP server and programs) ends with the worker.
  const releaseParts = async () => {
    const built = await Promise.allSettled([...parts.values()]);
    parts.clear();
    await Promise.allSettled(
      built.map(async (r) => {
        const agent = r.status === 'fulfilled' ? (r.value.agent as { close?: () => unknown }) : undefined;
        if (typeof agent?.close === 'function') await agent.close();
      }),
    );
  };
  const close = async (force: boolean) => {
    if (!force && reachable) {
      const interrupted = new Promise<'interrupted'>((resolve) => {
        interrupt = () => resolve('interrupted');
      });
      const outcome = await Promise.race([worker.close(false).then(() => 'closed' as const), interrupted]);
      interrupt = undefined;
      if (outcome === 'closed') {
        stopping = true;
        cut();
        return;
      }
      // Redis went away while the episodes finished (their results could not be delivered), or a forced
      // close was asked for: give them up.
    }
    stopping = true;
    giveUp.abort(new Error('the worker stopped; the job runs again elsewhere'));
    // BullMQ marks itself closing first (so its loops end rather than retry), then the connections are cut:
    // its close would otherwise wait on commands queued for a Redis that is not there.
    const closed = worker.close(true).catch(() => {});
    cut();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      closed,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, FORCE_CLOSE_MS);
      }),
    ]);
    clearTimeout(timer);
  };

  return {
    queue: name,
    waitUntilReady: async () => {
      await worker.waitUntilReady();
    },
    close(force = false) {
      if (closing) {
        if (force) interrupt?.();
        return closing;
      }
      closing = close(force).finally(releaseParts);
      return closing;
    },
    reachable: () => reachable,
    inFlight: () => running,
    processed: () => processed,
  };
}
