import { resolve } from 'node:path';
import { InvalidArgumentError, redactSecrets } from '@skillrl/core';
import type { Command } from 'commander';
import type { CliIo, WithErrors } from '../cli/create-cli.js';
import { loadConfig } from '../config/load-config.js';
import { loadQueue } from './load-queue.js';
import { createPartsLoader } from './worker-parts.js';

interface WorkerFlags {
  redis?: string;
  queue?: string;
  concurrency?: string;
  config?: string;
  verbose?: boolean;
}

/**
 * `skillrl worker --redis <url> [--queue name] [--concurrency N]` (or `--config run.yaml` for its `workers`
 * section): a rollout worker that builds each run's parts as its session does, from this folder's packages,
 * prints progress, and on SIGINT/SIGTERM finishes the episodes in flight and exits 0.
 */
export function addWorkerCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('worker')
    .description(
      "run episodes for runs whose config sets `workers`: take jobs from the BullMQ queue in Redis, build the run's adapter and agent as the session does (built-ins, packages from this folder, API keys from this environment by the config's names), return trajectories; SIGINT/SIGTERM stops after the episodes in flight",
    )
    .option('--redis <url>', "redis://host:port (default: the config's workers.redis)")
    .option('--queue <name>', "BullMQ queue name (default: the config's, else skillrl-rollouts)")
    .option('--concurrency <n>', "episodes in flight in this process (default: the config's, else 2)")
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
        const folder = resolve('.');
        const mod = await loadQueue(`${folder}/skillrl.config`);
        mod.checkRedisUrl(redis, '--redis');
        const queueName = flags.queue ?? section?.queue;
        let done = 0;
        let failed = 0;
        let reported = 0;
        const worker = mod.startRolloutWorker({
          redis,
          ...(queueName ? { queue: queueName } : {}),
          concurrency,
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
        await worker.waitUntilReady();
        io.out(
          `worker ${process.pid} listening on queue "${worker.queue}" at ${mod.describeRedisUrl(redis)} (concurrency ${concurrency}); Ctrl-C stops it`,
        );
        const progress = setInterval(() => {
          if (done + failed === reported) return;
          reported = done + failed;
          io.out(`episodes done ${done}${failed ? `, failed ${failed}` : ''}`);
        }, 5000);
        const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
          process.once('SIGINT', () => resolveSignal('SIGINT'));
          process.once('SIGTERM', () => resolveSignal('SIGTERM'));
        });
        clearInterval(progress);
        io.out(`${signal}: finishing the episodes in flight, then stopping`);
        await worker.close();
        io.out(`worker stopped: episodes done ${done}${failed ? `, failed ${failed}` : ''}`);
      }),
    );
}
