import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError } from '@skillrl/core';
import { createBaseModels } from './base-models.js';
import { createClientSessions } from './client-sessions.js';
import { createFaultDraw } from './faults.js';
import { createFutureStore } from './futures.js';
import { createRequestPipeline } from './request-pipeline.js';
import { createRoutes } from './routes.js';
import { createSampling } from './sampling.js';
import { tinyChatBaseModels } from './tiny-chat.js';
import { createTrainingRuns } from './training-runs.js';
import {
  FAKE_TINKER_FAULTS,
  type FakeTinkerOptions,
  type FakeTinkerRecordedRequest,
  type FakeTinkerServer,
  type FakeTinkerStats,
} from './types.js';

// The fake by concern: `request-pipeline.ts` (body, key, faults, idempotency), `routes.ts` (the SDK's routes),
// `futures.ts` (the future store and `seq_id` order), `training-runs.ts` (models, gradients, checkpoints),
// `sampling.ts` (sampling sessions and `asample`), `client-sessions.ts`; this file wires them and listens.

/**
 * Starts a fake Tinker API server on 127.0.0.1 for tests, built from the Tinker SDK's routes and types, that
 * hosts a small real learnable model per LoRA training run: a bigram base model over the tiny-chat
 * vocabulary with a LoRA adapter (see `lora-model.ts`), trained by `forward_backward` with Tinker's losses
 * (`importance_sampling`, `ppo`, `cispo`, `dro`, `cross_entropy`) and AdamW `optim_step`s, saved as training
 * or sampler checkpoints, loaded back, and sampled. Futures resolve after `futures.pendingPolls` polls, or
 * fail, expire or never resolve as planned; HTTP faults (429, 500, dropped sockets before or after the work
 * is done) are seeded. Every update is recorded with a digest, and checkpoints carry the lineage of updates
 * their weights descend from, so a test can tell whether two runs trained the same way.
 */
export async function startFakeTinker(options: FakeTinkerOptions = {}): Promise<FakeTinkerServer> {
  const specs = options.baseModels ?? tinyChatBaseModels();
  if (Object.keys(specs).length === 0)
    throw new InvalidArgumentError('options.baseModels', 'expected at least one base model');
  const rate = options.faults?.rate ?? 0;
  if (!(rate >= 0 && rate <= 1))
    throw new InvalidArgumentError('options.faults.rate', `expected a probability, got ${rate}`);
  const kinds = options.faults?.kinds ?? FAKE_TINKER_FAULTS;
  const seqGapMs = options.seqGapMs ?? 100;
  const wire = options.wire ?? 'json';
  if (wire !== 'json' && wire !== 'protobuf' && wire !== 'both')
    throw new InvalidArgumentError(
      'options.wire',
      `expected "json", "protobuf" or "both", got ${JSON.stringify(wire)}`,
    );
  const seed = options.seed ?? 0;
  const record = options.record ?? true;

  const requests: FakeTinkerRecordedRequest[] = [];
  const stats: FakeTinkerStats = {
    received: 0,
    byRoute: {},
    faulted: {},
    futures: { created: 0, tryAgain: 0, resolved: 0, failed: 0, expired: 0 },
    idempotentReplays: 0,
    heartbeats: 0,
    warnings: [],
  };
  const baseModels = createBaseModels(specs);
  const sessions = createClientSessions();
  const runs = createTrainingRuns(baseModels, seed);
  const sampling = createSampling(baseModels, runs, seed);
  const futures = createFutureStore({ futures: options.futures, seqGapMs, wire, stats });
  const handle = createRoutes({ baseModels, sessions, runs, sampling, futures, stats });
  const pipeline = createRequestPipeline({
    options,
    wire,
    record,
    requests,
    stats,
    drawFault: createFaultDraw(options.faults, { seed, rate, kinds }),
    handle,
  });

  const server = createServer(pipeline);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    requests,
    stats: () => JSON.parse(JSON.stringify(stats)) as FakeTinkerStats,
    sessions: () => sessions.list(),
    samplingSessions: () => sampling.list(),
    trainingRuns: () => runs.list().map(runs.publicRun),
    trainingRun: (id) => {
      const run = runs.get(id);
      return run ? runs.publicRun(run) : undefined;
    },
    lineageOf: (path) => {
      try {
        return [...runs.stored(path).lineage];
      } catch {
        return undefined;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
