import { SkillrlError } from '@skillrl/core';
import { DEFAULT_QUEUE } from './queue-keys.js';

/**
 * What every error that stops a run on the queue tells the user to type once the cause is fixed: the
 * session passes its real command (`skillrl resume /runs/x`); a library user without one gets this.
 */
export const DEFAULT_RESUME_COMMAND = 'skillrl resume <run-dir>';

// Markers rather than instanceof: they survive two copies of the package side by side.
const NO_WORKER = Symbol.for('skillrl.error.queue.no-worker');
const JOB_FAILED = Symbol.for('skillrl.error.queue.episode-job');
const BAD_RESULT = Symbol.for('skillrl.error.queue.episode-result');
const UNREACHABLE = Symbol.for('skillrl.error.queue.redis-unavailable');

const marked = (error: unknown, symbol: symbol) =>
  typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[symbol] === true;

/** No worker listened on the queue for longer than the run's budget (`workers.noWorkerTimeoutMs`). */
export class NoWorkerError extends SkillrlError {
  constructor(
    readonly queue: string,
    readonly waitedMs: number,
    resumeCommand = DEFAULT_RESUME_COMMAND,
  ) {
    super(
      'SKILLRL_NO_WORKER',
      `no rollout worker listened on queue "${queue}" for ${Math.round(waitedMs / 1000)} s (workers.noWorkerTimeoutMs); everything finished is kept: start one with \`skillrl worker --redis <url>${queue === DEFAULT_QUEUE ? '' : ` --queue ${queue}`}\` on any machine that reaches Redis, then \`${resumeCommand}\``,
    );
    Object.defineProperty(this, NO_WORKER, { value: true });
    this.name = 'NoWorkerError';
  }

  static override isInstance(error: unknown): error is NoWorkerError {
    return marked(error, NO_WORKER);
  }
}

/** A job failed on every attempt (its components did not load on the worker, say): the run stops. */
export class EpisodeJobError extends SkillrlError {
  constructor(
    readonly episodeId: string,
    reason: string,
    resumeCommand = DEFAULT_RESUME_COMMAND,
  ) {
    super(
      'SKILLRL_EPISODE_JOB_FAILED',
      `rollout job for episode "${episodeId}" failed on every attempt: ${reason}; see the worker's output, fix it, then \`${resumeCommand}\``,
    );
    Object.defineProperty(this, JOB_FAILED, { value: true });
    this.name = 'EpisodeJobError';
  }

  static override isInstance(error: unknown): error is EpisodeJobError {
    return marked(error, JOB_FAILED);
  }
}

/**
 * A worker returned something that is not the episode's trajectory (core's `trajectory` schema, or another
 * rollout's id): a worker of another version, say. Nothing of it is stored; the run stops.
 */
export class EpisodeResultError extends SkillrlError {
  constructor(
    readonly episodeId: string,
    readonly jobId: string,
    readonly problem: string,
    resumeCommand = DEFAULT_RESUME_COMMAND,
  ) {
    super(
      'SKILLRL_EPISODE_RESULT_INVALID',
      `rollout job ${jobId} for episode "${episodeId}" returned a result that is not its trajectory (${problem}); nothing of it was stored. Run the same @skillrl/queue and @skillrl/core versions on the workers as here, then \`${resumeCommand}\``,
    );
    Object.defineProperty(this, BAD_RESULT, { value: true });
    this.name = 'EpisodeResultError';
  }

  static override isInstance(error: unknown): error is EpisodeResultError {
    return marked(error, BAD_RESULT);
  }
}

/**
 * Redis could not be reached for longer than `workers.connectTimeoutMs`: refused at the start, or lost
 * mid-run and not back. `url` is already redacted (no password).
 */
export class RedisUnavailableError extends SkillrlError {
  constructor(
    readonly url: string,
    readonly waitedMs: number,
    readonly lastError: string | undefined,
    resumeCommand = DEFAULT_RESUME_COMMAND,
  ) {
    super(
      'SKILLRL_REDIS_UNAVAILABLE',
      `Redis at ${url} (workers.redis) could not be reached for ${(waitedMs / 1000).toFixed(1)} s (workers.connectTimeoutMs)${lastError ? `: ${lastError}` : ''}; everything finished is kept: start Redis (or fix workers.redis), then \`${resumeCommand}\``,
    );
    Object.defineProperty(this, UNREACHABLE, { value: true });
    this.name = 'RedisUnavailableError';
  }

  static override isInstance(error: unknown): error is RedisUnavailableError {
    return marked(error, UNREACHABLE);
  }
}
