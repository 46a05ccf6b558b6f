/** `workers:` in a config: episodes go to rollout workers on a BullMQ queue in Redis instead of this process. */
export interface WorkersOptions {
  /** redis:// or rediss:// URL the run and its workers share. */
  redis: string;
  /** BullMQ queue name (default `skillrl-rollouts`); workers started with the same name serve the run. */
  queue?: string;
  /** Jobs in flight per worker, for `skillrl worker --config <file>` (default 1). */
  concurrency?: number;
  /** A worker gives up on an episode after this long; the job fails and is retried. */
  jobTimeoutMs?: number;
  /** Say so (CLI and events) after this long with no worker listening (default 10 000). */
  noWorkerNoticeMs?: number;
  /** Stop the run with a clear error after this long with no worker listening (default 120 000). */
  noWorkerTimeoutMs?: number;
  /**
   * Redis refused from the start, or lost mid-run and not back within this long: the run stops (exit 3,
   * resumable) naming the URL (default 10 000). A shorter outage (a restart) is waited through.
   */
  connectTimeoutMs?: number;
  /**
   * For `skillrl worker --config <file>`: how long a job's lock lasts without renewal (default 60 000). It
   * must outlast the longest stretch an episode keeps the worker's event loop busy (a CPU-bound policy),
   * or the job is taken as stalled and runs twice; a killed worker's jobs run again after about this long.
   */
  lockDurationMs?: number;
}

const positiveInt = { type: 'integer', minimum: 1 } as const;

export const workersSchema = {
  type: 'object',
  description:
    'Run episodes on rollout workers (`skillrl worker --redis <url>`, any machine) through a BullMQ queue in Redis, needs @skillrl/queue installed; results are the same as in process.',
  required: ['redis'],
  properties: {
    redis: {
      type: 'string',
      pattern: '^rediss?://',
      description: 'redis://host:port (a password in it is kept secret)',
    },
    queue: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
    concurrency: positiveInt,
    jobTimeoutMs: positiveInt,
    noWorkerNoticeMs: positiveInt,
    noWorkerTimeoutMs: positiveInt,
    connectTimeoutMs: {
      ...positiveInt,
      description:
        'ms: Redis refused from the start, or lost mid-run and not back this long, stops the run (exit 3, resumable); default 10000',
    },
    lockDurationMs: {
      type: 'integer',
      minimum: 100,
      description:
        "ms a worker's job lock lasts without renewal (skillrl worker --config); longer than any stretch an episode keeps the worker busy; default 60000",
    },
  },
  additionalProperties: false,
} as const;
