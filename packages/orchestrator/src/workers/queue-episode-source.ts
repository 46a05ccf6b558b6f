import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunConfig } from '@skillrl/core';
import { redactObject, registerSecret } from '@skillrl/core';
import type { EpisodeRunContext, EpisodeSource, RunSession } from '../run/run-session.js';
import { loadQueue } from './load-queue.js';

/** What a worker builds a run's parts from: the config (no secrets in it: keys are named by `apiKeyEnv`). */
export interface WorkerContext {
  v: 1;
  config: RunConfig;
}

/**
 * The session's episodes on rollout workers: each unit's plan goes to `@skillrl/queue` with the run's
 * config as its components blob and, when the agent has state (a policy being trained), that state as
 * saved now; notices about missing workers or a restarted Redis go to the CLI (`onWarning`) and to
 * events.jsonl (`type: "workers"`).
 */
export function queueEpisodeSource(
  config: RunConfig,
  configPath: string,
  session: RunSession,
  onWarning: ((message: string) => void) | undefined,
): EpisodeSource {
  const workers = config.workers as NonNullable<RunConfig['workers']>;
  // Never on disk: config.json and events are redacted of it from here on.
  const password = URL.canParse(workers.redis) ? new URL(workers.redis).password : '';
  if (password) registerSecret(decodeURIComponent(password));
  let opened: Promise<{ queue: import('@skillrl/queue').EpisodeQueue; context: string }> | undefined;
  // Held apart from `opened`: when its first call to Redis fails, the queue must still be closed, or its
  // connections would keep reconnecting and the process would never exit.
  let created: import('@skillrl/queue').EpisodeQueue | undefined;
  const open = () => {
    opened ??= (async () => {
      const mod = await loadQueue<typeof import('@skillrl/queue')>(configPath);
      const queue = mod.createEpisodeQueue({
        redis: workers.redis,
        ...(workers.queue !== undefined ? { queue: workers.queue } : {}),
        ...(workers.jobTimeoutMs !== undefined ? { jobTimeoutMs: workers.jobTimeoutMs } : {}),
        ...(workers.noWorkerNoticeMs !== undefined ? { noWorkerNoticeMs: workers.noWorkerNoticeMs } : {}),
        ...(workers.noWorkerTimeoutMs !== undefined ? { noWorkerTimeoutMs: workers.noWorkerTimeoutMs } : {}),
        ...(workers.connectTimeoutMs !== undefined ? { connectTimeoutMs: workers.connectTimeoutMs } : {}),
        // Ctrl-C, SIGTERM and the error budget end every wait on Redis or the workers at once.
        signal: session.signal,
        // The queue's stops (no worker, Redis unreachable, a job failed) leave a resumable run: their
        // messages give the command that continues this one.
        resumeCommand: `skillrl resume ${session.dir}`,
        onNotice: (notice) => {
          onWarning?.(notice.message);
          session.emit({
            type: 'workers',
            status: notice.kind,
            workers: notice.workers,
            ...(notice.jobs !== undefined ? { jobs: notice.jobs } : {}),
            message: notice.message,
          });
        },
      });
      created = queue;
      // Where workers are: the run's own field would only tell them where this machine keeps its runs.
      const { workers: _w, runDir: _r, ...shared } = config;
      const context: WorkerContext = { v: 1, config: redactObject(shared) as RunConfig };
      return { queue, context: await queue.putBlob(JSON.stringify(context)) };
    })();
    return opened;
  };

  const agentState = async (ctx: EpisodeRunContext, queue: import('@skillrl/queue').EpisodeQueue) => {
    const persistence = ctx.agentPersistence;
    if (!persistence) return undefined;
    if (persistence.kind === 'json') {
      return queue.putBlob(JSON.stringify({ json: persistence.get(ctx.agent) }));
    }
    const dir = await mkdtemp(join(tmpdir(), 'skillrl-agent-state-'));
    try {
      await persistence.save(ctx.agent, dir);
      const mod = await loadQueue<typeof import('@skillrl/queue')>(configPath);
      return queue.putBlob(await mod.packDir(dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  return {
    async forUnit(ctx) {
      const { queue, context } = await open();
      const state = await agentState(ctx, queue);
      return (options) =>
        queue.collectRollouts({
          plan: 'plan' in options ? options.plan : [],
          run: session.runId,
          context,
          ...(state !== undefined ? { state } : {}),
          ...(ctx.generation !== undefined ? { generation: ctx.generation } : {}),
          ...(ctx.maxSteps !== undefined ? { maxSteps: ctx.maxSteps } : {}),
          ...(options.stored ? { stored: options.stored } : {}),
          ...(options.onTrajectory ? { onTrajectory: options.onTrajectory } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
    },
    async close() {
      await opened?.catch(() => {});
      await created?.close();
    },
  };
}
