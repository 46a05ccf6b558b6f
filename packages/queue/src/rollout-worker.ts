import {
  type Agent,
  InvalidArgumentError,
  redactSecrets,
  type TaskAdapter,
  type Verifier,
} from '@skillrl/core';
import { collectRollouts, type PlannedEpisode } from '@skillrl/rollout';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { connectRedis } from './connect-redis.js';
import { type EpisodeJobData, type EpisodeJobResult, JOB_NAME } from './episode-job.js';
import { blobKey, DEFAULT_QUEUE, KEY_PREFIX, sha256 } from './queue-keys.js';

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
  /** How long a job's lock lasts without renewal: a killed worker's job runs again after about this long. */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (a killed worker's) to put back (default lock / 2). */
  stalledIntervalMs?: number;
  onJob?: (event: WorkerJobEvent) => void;
  /** Redis and worker errors (already redacted). */
  onError?: (message: string) => void;
}

export interface RolloutWorker {
  readonly queue: string;
  /** Resolves once the worker is connected and listening. */
  waitUntilReady(): Promise<void>;
  /** Finishes the jobs in flight (unless `force`), then disconnects. */
  close(force?: boolean): Promise<void>;
  processed(): number;
}

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
  const lockDuration = options.lockDurationMs ?? 5000;
  const stalledInterval = options.stalledIntervalMs ?? Math.max(500, Math.floor(lockDuration / 2));
  const cacheSize = options.cacheSize ?? 4;
  const blobs = connectRedis(options.redis, '--redis');
  const report = (error: unknown) =>
    options.onError?.(redactSecrets(error instanceof Error ? error.message : String(error)));
  blobs.on('error', report);
  const parts = new Map<string, Promise<EpisodeParts>>();
  let processed = 0;

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

  const connection = connectRedis(options.redis, '--redis');
  connection.on('error', report);
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
      const { adapter, agent, verifier } = await partsFor(data.context, data.state);
      const trajectories = await collectRollouts({
        plan: [data.episode],
        adapter,
        agent,
        concurrency: 1,
        ...(verifier ? { verifier } : {}),
        ...(data.generation !== undefined ? { generation: data.generation } : {}),
        ...(data.maxSteps !== undefined ? { maxSteps: data.maxSteps } : {}),
        ...(data.timeoutMs !== undefined ? { signal: AbortSignal.timeout(data.timeoutMs) } : {}),
      }).collect();
      const trajectory = trajectories[0] as EpisodeJobResult;
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

  return {
    queue: name,
    waitUntilReady: async () => {
      await worker.waitUntilReady();
    },
    async close(force = false) {
      await worker.close(force);
      // BullMQ leaves a connection it was given open.
      connection.disconnect();
      blobs.disconnect();
    },
    processed: () => processed,
  };
}
