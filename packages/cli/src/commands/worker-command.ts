import { resolve } from 'node:path';
import { InvalidArgumentError, redactSecrets } from '@skillrl/core';
import { createPartsLoader, loadConfig, loadQueue } from '@skillrl/orchestrator';
import type * as Queue from '@skillrl/queue';
import type { Command } from 'commander';
import type { CliIo, WithErrors } from '../cli-io.js';

interface WorkerFlags {
  redis?: string;
  queue?: string;
  concurrency?: string;
  lockDurationMs?: string;
  config?: string;
  verbose?: boolean;
}

/**
 * `skillrl worker --redis <url> [--queue name] [--concurrency N]` (or `--config run.yaml` for its `workers`
 * section): a rollout worker that builds each run's parts as its session does, from this folder's packages,
 * prints progress, and on SIGINT/SIGTERM finishes the episodes in flight and exits 0 — at once, giving them
 * up, while Redis is unreachable (their results could not be delivered) or on a second signal.
 */
export function addWorkerCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('worker')
    .description(
      "run episodes for runs whose config sets `workers`: take jobs from the BullMQ queue in Redis, build the run's adapter and agent as the session does (built-ins, packages from this folder, API keys from this environment by the config's names), return trajectories; SIGINT/SIGTERM stops after the episodes in flight (at once while Redis is unreachable, or on a second signal)",
    )
    .option('--redis <url>', "redis://host:port (default: the config's workers.redis)")
    .option('--queue <name>', "BullMQ queue name (default: the config's, else skillrl-rollouts)")
    .option('--concurrency <n>', "episodes in flight in this process (default: the config's, else 2)")
    .option(
      '--lock-duration-ms <ms>',
      "how long a job's lock lasts without renewal (default: the config's workers.lockDurationMs, else 60000): longer than any stretch an episode keeps this process busy, or another worker runs it again",
    )
    .option('--config <file>', "read redis, queue and concurrency from this config's workers section")
    .option('--verbose', 'print one line per episode')
    .action(
      withErrors(async (flags: WorkerFlags) => {
        const section = flags.config ? loadConfig(flags.config).config.workers : undefined;
        if (flags.config && !section) {
          throw new InvalidArgumentError(
            '--config',
            `${flags.config} has no workers section; add workers: { redis: redis://host:port }`,
          );
        }
        const redis = flags.redis ?? section?.redis;
        if (!redis) {
          throw new InvalidArgumentError(
            '--redis',
            'expected --redis redis://host:port (or --config with a workers section)',
          );
        }
        const concurrency =
          flags.concurrency !== undefined ? Number(flags.concurrency) : (section?.concurrency ?? 2);
        if (!Number.isInteger(concurrency) || concurrency < 1) {
          throw new InvalidArgumentError(
            '--concurrency',
            `expected an integer >= 1, got ${flags.concurrency}`,
          );
        }
        const lockDurationMs =
          flags.lockDurationMs !== undefined ? Number(flags.lockDurationMs) : section?.lockDurationMs;
        if (lockDurationMs !== undefined && (!Number.isInteger(lockDurationMs) || lockDurationMs < 100)) {
          throw new InvalidArgumentError(
            '--lock-duration-ms',
            `expected an integer >= 100 (milliseconds), got ${flags.lockDurationMs}`,
          );
        }
        const folder = resolve('.');
        const mod = await loadQueue<typeof Queue>(`${folder}/skillrl.config`);
        mod.checkRedisUrl(redis, '--redis');
        const shownUrl = mod.describeRedisUrl(redis);
        const queueName = flags.queue ?? section?.queue;
        let done = 0;
        let failed = 0;
        let reported = 0;
        const worker = mod.startRolloutWorker({
          redis,
          ...(queueName ? { queue: queueName } : {}),
          concurrency,
          ...(lockDurationMs !== undefined ? { lockDurationMs } : {}),
          load: createPartsLoader(folder, mod.unpackDir),
          onJob: (event) => {
            if (event.kind === 'done') done++;
            else failed++;
            if (event.kind === 'failed') {
              io.err(`episode ${event.episodeId} of ${event.run} failed: ${event.error ?? ''}`);
            } else if (flags.verbose) {
              io.out(`${event.run} ${event.episodeId} reward ${event.reward} (${event.ms} ms)`);
            }
          },
          onError: (message) => io.err(`warning: ${redactSecrets(message)}`),
        });
        // Heard from the start, so a worker still waiting for Redis stops on the first signal; a second one
        // gives up the episodes in flight.
        let received: NodeJS.Signals | undefined;
        let onSignal: ((signal: NodeJS.Signals) => void) | undefined;
        const stopped = new Promise<NodeJS.Signals>((resolveSignal) => {
          onSignal = (signal) => {
            if (received) {
              io.out(`${signal} again: giving up the episodes in flight (they run again on another worker)`);
              void worker.close(true);
              return;
            }
            received = signal;
            resolveSignal(signal);
          };
        });
        const onInt = () => onSignal?.('SIGINT');
        const onTerm = () => onSignal?.('SIGTERM');
        process.on('SIGINT', onInt);
        process.on('SIGTERM', onTerm);
        let progress: NodeJS.Timeout | undefined;
        try {
          const ready = worker.waitUntilReady().then(() => 'ready' as const);
          // After a signal, a wait for Redis that the close ends is no error.
          ready.catch(() => {});
          const first = await Promise.race([ready, stopped]).catch(async (error: unknown) => {
            // It cannot start (Redis refused its password, say): nothing may keep the process running.
            await worker.close(true);
            throw error;
          });
          if (first === 'ready') {
            io.out(
              `worker ${process.pid} listening on queue "${worker.queue}" at ${shownUrl} (concurrency ${concurrency}); Ctrl-C stops it`,
            );
            progress = setInterval(() => {
              if (done + failed === reported) return;
              reported = done + failed;
              io.out(`episodes done ${done}${failed ? `, failed ${failed}` : ''}`);
            }, 5000);
          }
          const signal = await stopped;
          clearInterval(progress);
          const inFlight = worker.inFlight();
          if (worker.reachable()) {
            io.out(
              `${signal}: finishing the ${inFlight} episode(s) in flight, then stopping (a second signal stops at once)`,
            );
          } else {
            io.out(
              `${signal}: Redis at ${shownUrl} is unreachable: stopping now; ${inFlight} episode(s) in flight are given up and run again on a worker once their job's lock lapses`,
            );
          }
          await worker.close();
          io.out(`worker stopped: episodes done ${done}${failed ? `, failed ${failed}` : ''}`);
        } finally {
          clearInterval(progress);
          process.off('SIGINT', onInt);
          process.off('SIGTERM', onTerm);
        }
      }),
    );
}
