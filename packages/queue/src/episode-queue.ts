import { randomUUID } from 'node:crypto';
import { InvalidArgumentError, redactObject, type Trajectory, type Usage } from '@skillrl/core';
import {
  addUsage,
  checkRolloutPlan,
  emptyRolloutSummary,
  type PlannedEpisode,
  type PlannedRollouts,
  type RolloutRun,
  rolloutRun,
  type TrajectoryInfo,
} from '@skillrl/rollout';
import { type Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkJobResult } from './check-job-result.js';
import { checkRedisUrl, connectRedis, describeRedisUrl, endRedis } from './connect-redis.js';
import { type EpisodeJobData, type EpisodeJobResult, JOB_NAME } from './episode-job.js';
import {
  DEFAULT_RESUME_COMMAND,
  EpisodeJobError,
  EpisodeResultError,
  NoWorkerError,
  RedisUnavailableError,
} from './queue-errors.js';
import { blobKey, DEFAULT_QUEUE, jobIdOf, KEY_PREFIX, sha256 } from './queue-keys.js';
import { RedisLink } from './redis-link.js';

/** What the run is told while it waits on workers (the CLI prints it, the session writes it as an event). */
export interface QueueNotice {
  kind: 'no-worker' | 'workers-back' | 're-enqueued';
  message: string;
  /** Workers listening now. */
  workers: number;
  /** For `re-enqueued`: jobs that Redis no longer held (restarted without persistence) and were added again. */
  jobs?: number;
}

export interface EpisodeQueueOptions {
  /** redis:// or rediss:// URL. A password in it is treated as a secret. */
  redis: string;
  /** BullMQ queue name shared with the workers (default `skillrl-rollouts`). */
  queue?: string;
  /** Per-episode limit the workers apply; the job fails and is retried (default none). */
  jobTimeoutMs?: number;
  /** Say so after this long with no worker listening (default 10 s). */
  noWorkerNoticeMs?: number;
  /** Stop with `NoWorkerError` after this long with no worker listening (default 120 s). */
  noWorkerTimeoutMs?: number;
  /** How often the run looks at its pending jobs, the workers and Redis (default 1 s). */
  pollMs?: number;
  /** Attempts per job before it fails the run (a worker killed mid-episode costs none: the job stalls). */
  attempts?: number;
  /**
   * Redis refused from the start, or lost and not back within this long: the batch stops with
   * `RedisUnavailableError` (default 10 s). A shorter outage (a restart) is waited through.
   */
  connectTimeoutMs?: number;
  /** Every wait on Redis or the workers ends with this signal's reason once it aborts (the run's Ctrl-C). */
  signal?: AbortSignal;
  /**
   * The command that continues the run, quoted by every error that stops it (`skillrl resume
   * /path/to/run`; default `skillrl resume <run-dir>`).
   */
  resumeCommand?: string;
  onNotice?: (notice: QueueNotice) => void;
}

/** A batch to run on the workers: a ready plan, the blobs to build parts from, and collectRollouts' ports. */
export interface QueuedRolloutsOptions extends PlannedRollouts {
  /** The run's id: part of every job's payload, so two runs never share a job. */
  run: string;
  /** Hash of the components blob (`putBlob`). */
  context: string;
  /** Hash of the agent-state blob, when the agent has state (a policy being trained). */
  state?: string;
  generation?: number;
  maxSteps?: number;
  stored?: (episode: PlannedEpisode) => Trajectory | undefined;
  onTrajectory?: (trajectory: Trajectory, info: TrajectoryInfo) => void | Promise<void>;
  signal?: AbortSignal;
}

export interface EpisodeQueue {
  readonly name: string;
  /** Stores `data` under its hash (kept 7 days; put again, it is the same key) and returns the hash. */
  putBlob(data: Buffer | string): Promise<string>;
  /** Runs the batch on the workers; the same contract as rollout's `collectRollouts`. */
  collectRollouts(options: QueuedRolloutsOptions): RolloutRun;
  /** Workers listening on the queue now. */
  workers(): Promise<number>;
  /**
   * Jobs whose result this queue listens for: those its batches still wait on, 0 between batches (a job's
   * entry goes when its trajectory is collected, when it fails for good, or when its batch ends).
   */
  tracked(): number;
  /** Ends every wait, then closes its connections: gracefully while Redis answers, at once when not. */
  close(): Promise<void>;
}

const BLOB_TTL_S = 7 * 24 * 3600;
/**
 * Blobs kept in memory to put back after a Redis restart: the components blob and the agent states of the
 * units in flight. A state blob is put once per unit, so keeping them all would grow with the run.
 */
const BLOBS_KEPT = 8;
/** Longest a graceful close waits for BullMQ before the connections are cut. */
const CLOSE_MS = 2000;

/** `promise`, or nothing after `ms`; the timer never outlives it. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

function positive(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(field, `expected a number of milliseconds > 0, got ${value}`);
  }
  return value;
}

/**
 * The session's side of the queue: enqueues each planned episode as a BullMQ job whose id is the hash of
 * its payload, and collects every job's trajectory once, keyed by rollout id, streaming them like the
 * in-process pool. While it waits it watches the workers (none for `noWorkerNoticeMs` → a notice; for
 * `noWorkerTimeoutMs` → `NoWorkerError`) and its jobs (one Redis no longer holds, after a restart without
 * persistence, is enqueued again with the blobs it needs).
 */
export function createEpisodeQueue(options: EpisodeQueueOptions): EpisodeQueue {
  const url = checkRedisUrl(options.redis);
  const name = options.queue ?? DEFAULT_QUEUE;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    throw new InvalidArgumentError('workers.queue', `expected letters, digits, "-" or "_", got "${name}"`);
  }
  const noticeMs = positive(options.noWorkerNoticeMs, 'workers.noWorkerNoticeMs', 10_000);
  const budgetMs = positive(options.noWorkerTimeoutMs, 'workers.noWorkerTimeoutMs', 120_000);
  const pollMs = positive(options.pollMs, 'workers.pollMs', 1000);
  const jobTimeoutMs =
    options.jobTimeoutMs === undefined
      ? undefined
      : positive(options.jobTimeoutMs, 'workers.jobTimeoutMs', 0);
  const attempts = options.attempts ?? 3;
  const connectTimeoutMs = positive(options.connectTimeoutMs, 'workers.connectTimeoutMs', 10_000);
  const resumeCommand = options.resumeCommand ?? DEFAULT_RESUME_COMMAND;
  const quietMs = Math.max(2000, 5 * pollMs);
  const shownUrl = describeRedisUrl(url);
  // Present while Redis keeps what this session wrote: gone, Redis lost its data (restarted without persistence).
  const sentinel = `${KEY_PREFIX}:${name}:session:${randomUUID()}`;
  let closing = false;
  const link = new RedisLink({
    timeoutMs: connectTimeoutMs,
    unavailable: (downMs, lastError) =>
      new RedisUnavailableError(
        shownUrl,
        downMs,
        // ioredis names host and port only; a password could still come back in a server's reply.
        lastError?.replaceAll(url, shownUrl),
        resumeCommand,
      ),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  /** Every call to Redis: waits through a short outage, not past connectTimeoutMs or an abort. */
  const guard = <T>(op: Promise<T> | (() => Promise<T>), signal?: AbortSignal) => link.guard(op, signal);
  // Every connection (and any copy BullMQ makes), so that close can end each one whatever its state.
  const clients: Redis[] = [];
  const connect = () => {
    // Closing ends reconnection, so no retry timer keeps the process alive after the run stopped.
    const client = connectRedis(url, 'workers.redis', {
      stopped: () => closing,
      onCopy: (copy) => clients.push(copy),
    });
    clients.push(client);
    return client;
  };
  const redis: Redis = connect();
  // A Redis that cannot be reached is reported by the calls that need it (RedisUnavailableError, once);
  // ioredis's own error events would otherwise print the URL (and its password) on every reconnect.
  redis.on('error', () => {});
  link.watch(redis);
  const queue = new Queue<EpisodeJobData, EpisodeJobResult>(name, { connection: redis, prefix: KEY_PREFIX });
  queue.on('error', () => {});
  let events: QueueEvents | undefined;
  // Least recently used first.
  const blobs = new Map<string, Buffer>();
  const keepBlob = (hash: string, data: Buffer) => {
    blobs.delete(hash);
    blobs.set(hash, data);
    while (blobs.size > BLOBS_KEPT) blobs.delete(blobs.keys().next().value as string);
  };
  // Per job a batch waits on, what its completed and failed events do; removed as soon as they cannot come.
  const tracked = new Map<string, { completed: (value: unknown) => void; failed: () => void }>();

  const openEvents = () => {
    if (events) return events;
    const connection = connect();
    connection.on('error', () => {});
    link.watch(connection);
    events = new QueueEvents(name, { connection, prefix: KEY_PREFIX });
    events.on('error', () => {});
    events.on('completed', ({ jobId, returnvalue }) => tracked.get(jobId)?.completed(returnvalue));
    events.on('failed', ({ jobId }) => tracked.get(jobId)?.failed());
    return events;
  };

  const putBlob = async (data: Buffer | string): Promise<string> => {
    const buffer = typeof data === 'string' ? Buffer.from(data) : data;
    const hash = sha256(buffer);
    keepBlob(hash, buffer);
    await guard(() => redis.set(blobKey(name, hash), buffer, 'EX', BLOB_TTL_S));
    return hash;
  };
  /** The blobs a job needs, put again if Redis lost them. */
  const ensureBlobs = async (hashes: readonly (string | undefined)[], signal?: AbortSignal) => {
    for (const hash of hashes) {
      if (!hash) continue;
      const data = blobs.get(hash);
      if (!data) continue;
      keepBlob(hash, data);
      if ((await guard(() => redis.exists(blobKey(name, hash)), signal)) === 0) {
        await guard(() => redis.set(blobKey(name, hash), data, 'EX', BLOB_TTL_S), signal);
      }
    }
  };

  function collect(batch: QueuedRolloutsOptions): RolloutRun {
    // The pool's checks and counts, so the two episode sources answer alike.
    const plan = checkRolloutPlan(batch.plan);
    const summary = emptyRolloutSummary(plan.length);
    let started = false;

    async function* iterate(): AsyncGenerator<Trajectory> {
      if (started) throw new InvalidArgumentError('rollout run', 'a run can be iterated only once');
      started = true;
      const signal = batch.signal;
      signal?.throwIfAborted();
      options.signal?.throwIfAborted();
      const ready: { trajectory: Trajectory; episode: PlannedEpisode; reused: boolean; jobId?: string }[] =
        [];
      // Jobs whose trajectory is stored: removed from Redis, which then holds only what is in flight or not
      // yet collected (a session that is down finds those on reattach).
      const removals: Promise<unknown>[] = [];
      const remove = (jobId: string) => removals.push(guard(() => queue.remove(jobId)).catch(() => 0));
      const pending = new Map<string, { episode: PlannedEpisode; data: EpisodeJobData }>();
      for (const episode of plan) {
        const stored = batch.stored?.(episode);
        if (stored) {
          ready.push({ trajectory: stored, episode, reused: true });
          continue;
        }
        const data: EpisodeJobData = {
          v: 1,
          run: batch.run,
          // Redacted anyway: a task or skill text never carries a registered secret to Redis.
          episode: redactObject(episode),
          context: batch.context,
          ...(batch.state !== undefined ? { state: batch.state } : {}),
          ...(batch.generation !== undefined ? { generation: batch.generation } : {}),
          ...(batch.maxSteps !== undefined ? { maxSteps: batch.maxSteps } : {}),
          ...(jobTimeoutMs !== undefined ? { timeoutMs: jobTimeoutMs } : {}),
        };
        pending.set(jobIdOf(data), { episode, data });
      }
      const batchJobs = [...pending.keys()];
      // Exactly once: the first trajectory for a rollout id is kept; a second (a job that ran twice) is not.
      const collected = new Set<string>();
      let wake: (() => void) | undefined;
      let failure: { error: unknown } | undefined;
      const poke = () => wake?.();
      /**
       * The run stops on this job: nothing of it is stored, and it is removed from Redis, so that a resume
       * (once the cause is fixed) enqueues it again instead of finding its failure under the same id.
       */
      const stopOn = (jobId: string, error: unknown) => {
        failure ??= { error };
        tracked.delete(jobId);
        remove(jobId);
        poke();
      };
      const arrive = (jobId: string, value: unknown) => {
        const item = pending.get(jobId);
        if (!item || collected.has(item.episode.id)) return;
        const checked = checkJobResult(value, item.episode.id);
        if ('problem' in checked) {
          pending.delete(jobId);
          stopOn(jobId, new EpisodeResultError(item.episode.id, jobId, checked.problem, resumeCommand));
          return;
        }
        collected.add(item.episode.id);
        pending.delete(jobId);
        tracked.delete(jobId);
        lastArrival = Date.now();
        ready.push({ trajectory: checked.trajectory, episode: item.episode, reused: false, jobId });
        poke();
      };
      const fail = (jobId: string, reason: string) => {
        const item = pending.get(jobId);
        if (!item) return;
        stopOn(jobId, new EpisodeJobError(item.episode.id, reason, resumeCommand));
      };
      let lastArrival = Date.now();
      // A failed attempt may be retried: the next poll looks at the job (its attempts) before failing the run.
      let scanSoon = false;
      const enqueue = async (jobIds: readonly string[]) => {
        const items = jobIds.flatMap((id) => {
          const p = pending.get(id);
          return p ? [{ id, data: p.data }] : [];
        });
        await ensureBlobs([...new Set(items.flatMap((i) => [i.data.context, i.data.state]))], signal);
        for (let i = 0; i < items.length; i += 500) {
          await guard(
            () =>
              queue.addBulk(
                items.slice(i, i + 500).map(({ id, data }) => ({
                  name: JOB_NAME,
                  data,
                  opts: {
                    jobId: id,
                    attempts,
                    backoff: { type: 'fixed', delay: 1000 },
                    // Kept a while after completion: a resumed session reattaches and reads the result.
                    removeOnComplete: { age: 24 * 3600 },
                    removeOnFail: { age: 24 * 3600 },
                  },
                })),
              ),
            signal,
          );
        }
      };
      const onAbort = () => poke();
      signal?.addEventListener('abort', onAbort, { once: true });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let noWorkerSince: number | undefined;
      let noticed = false;
      let lastCheck = 0;
      let lastScan = 0;
      /**
       * Every poll: the workers, and whether Redis still holds this session's sentinel. A full look at the
       * pending jobs (results the events missed, jobs that failed for good, jobs Redis lost) only first
       * (a reattached session's finished jobs send no event), when the sentinel is gone (Redis restarted
       * without persistence), after a failed attempt, or when nothing arrived for a while: a look per poll
       * at hundreds of jobs costs Redis and this process more than the episodes' own traffic.
       */
      const reconcile = async () => {
        const workers = await guard(() => queue.getWorkersCount(), signal);
        const now = Date.now();
        const alive = (await guard(() => redis.exists(sentinel), signal)) === 1;
        if (!alive) await guard(() => redis.set(sentinel, '1', 'EX', 24 * 3600), signal);
        const quiet = now - Math.max(lastArrival, lastScan) >= quietMs;
        const scan = lastCheck === 0 || !alive || scanSoon || quiet;
        if (workers > 0) {
          if (noticed) {
            options.onNotice?.({
              kind: 'workers-back',
              workers,
              message: `${workers} rollout worker(s) listening on queue "${name}" again`,
            });
          }
          noWorkerSince = undefined;
          noticed = false;
        } else {
          noWorkerSince ??= now;
          const waited = now - noWorkerSince;
          if (waited >= budgetMs) throw new NoWorkerError(name, waited, resumeCommand);
          if (waited >= noticeMs && !noticed) {
            noticed = true;
            options.onNotice?.({
              kind: 'no-worker',
              workers: 0,
              message: `no rollout worker has listened on queue "${name}" at ${shownUrl} for ${Math.round(waited / 1000)} s; ${pending.size} episode(s) wait. Start one: skillrl worker --redis <url>. The run stops after ${Math.round(budgetMs / 1000)} s without one.`,
            });
          }
        }
        lastCheck = now;
        if (!scan) return;
        scanSoon = false;
        lastScan = now;
        const lost: string[] = [];
        const jobIds = [...pending.keys()];
        for (let i = 0; i < jobIds.length; i += 200) {
          const slice = jobIds.slice(i, i + 200);
          const jobs = await guard(() => Promise.all(slice.map((id) => queue.getJob(id))), signal);
          jobs.forEach((job: Job<EpisodeJobData, EpisodeJobResult> | undefined, k) => {
            const id = slice[k] as string;
            if (!job) lost.push(id);
            else if (job.finishedOn && job.returnvalue) arrive(id, job.returnvalue);
            else if (job.finishedOn && job.failedReason && job.attemptsMade >= attempts)
              fail(id, job.failedReason);
          });
        }
        if (lost.length > 0) {
          await enqueue(lost);
          options.onNotice?.({
            kind: 're-enqueued',
            workers,
            jobs: lost.length,
            message: `Redis at ${shownUrl} no longer held ${lost.length} job(s) of this run (restarted without persistence?); enqueued them again`,
          });
        }
      };
      try {
        if (pending.size > 0) {
          const ev = openEvents();
          for (const jobId of batchJobs) {
            tracked.set(jobId, {
              completed: (v) => arrive(jobId, v),
              failed: () => {
                scanSoon = true;
              },
            });
          }
          await guard(() => ev.waitUntilReady(), signal);
          await guard(() => redis.set(sentinel, '1', 'EX', 24 * 3600), signal);
          await enqueue(batchJobs);
        }
        for (;;) {
          const item = ready.shift();
          if (item) {
            await batch.onTrajectory?.(item.trajectory, { episode: item.episode, reused: item.reused });
            if (item.jobId) remove(item.jobId);
            summary.finished++;
            if (item.reused) summary.reused++;
            if (item.trajectory.error) summary.errors++;
            if (!item.reused) summary.usage = addUsage(summary.usage, item.trajectory.usage) as Usage;
            yield item.trajectory;
            continue;
          }
          if (failure) throw failure.error;
          if (signal?.aborted) throw signal.reason;
          if (options.signal?.aborted) throw options.signal.reason;
          if (pending.size === 0) break;
          if (Date.now() - lastCheck >= pollMs) {
            await reconcile();
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
        options.signal?.removeEventListener('abort', onAbort);
        for (const jobId of batchJobs) tracked.delete(jobId);
        // Removals are tidying: a run that stopped does not wait on them past an abort or an outage.
        await guard(Promise.all(removals), signal).catch(() => {});
      }
    }

    return rolloutRun(plan, summary, iterate);
  }

  return {
    name,
    putBlob,
    collectRollouts: collect,
    workers: () => guard(() => queue.getWorkersCount()),
    tracked: () => tracked.size,
    async close() {
      closing = true;
      link.dispose();
      // BullMQ leaves connections it was given open: each is closed here, or the process would not exit.
      // With Redis down, a graceful close would wait for it: the connections are cut at once instead.
      if (link.up()) {
        await within(
          (async () => {
            await events?.close();
            await queue.close();
          })(),
          CLOSE_MS,
        );
      }
      // Marked closing first, so that BullMQ's loops end on the cut connections rather than retry.
      const leftovers = Promise.all([events?.close(), queue.close()]).catch(() => {});
      for (const client of clients) endRedis(client);
      void leftovers;
    },
  };
}
