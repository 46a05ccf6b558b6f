import { SkillrlError } from '@skillrl/core';

/** No worker listened on the queue for longer than the run's budget (`workers.noWorkerTimeoutMs`). */
export class NoWorkerError extends SkillrlError {
  constructor(
    readonly queue: string,
    readonly waitedMs: number,
  ) {
    super(
      'SKILLRL_NO_WORKER',
      `no rollout worker listened on queue "${queue}" for ${Math.round(waitedMs / 1000)} s (workers.noWorkerTimeoutMs); start one with \`skillrl worker --redis <url>\` on any machine that reaches Redis, then \`skillrl resume <run-dir>\``,
    );
    this.name = 'NoWorkerError';
  }
}

/** A job failed on every attempt (its components did not load on the worker, say): the run stops. */
export class EpisodeJobError extends SkillrlError {
  constructor(
    readonly episodeId: string,
    reason: string,
  ) {
    super(
      'SKILLRL_EPISODE_JOB_FAILED',
      `rollout job for episode "${episodeId}" failed on every attempt: ${reason}; see the worker's output, fix it, then \`skillrl resume <run-dir>\``,
    );
    this.name = 'EpisodeJobError';
  }
}
