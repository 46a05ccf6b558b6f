import type { IncomingHttpHeaders } from 'node:http';
import type { FakeBaseModelSpec } from './lora-model.js';

/**
 * HTTP faults, at most one per request: `rate-limit` (429 with `retry-after-ms`), `server-error` (500),
 * `drop` (the socket is destroyed before the request is handled), `drop-after-commit` (the request is handled
 * — a future created, state changed — and then the socket is destroyed: only an idempotency key makes the
 * client's retry safe), `unauthorized` (401), `payment-required` (402: the service's billing pause).
 */
export type FakeTinkerFault =
  | 'rate-limit'
  | 'server-error'
  | 'drop'
  | 'drop-after-commit'
  | 'unauthorized'
  | 'payment-required';

/** The first `count` requests (to `routes`, default every route but `retrieve_future`) get `fault`. */
export interface FakeTinkerFaultStreak {
  fault: FakeTinkerFault;
  count: number;
  routes?: string[];
}

export const FAKE_TINKER_FAULTS: readonly FakeTinkerFault[] = [
  'rate-limit',
  'server-error',
  'drop',
  'drop-after-commit',
];

/**
 * What happens to a future (a request answered with `request_id`): `fail-user` / `fail-server` (the work
 * failed: `retrieve_future` answers `RequestFailedResponse` with that category), `expire` (the promise is
 * gone before the work ran: `retrieve_future` answers 410, and the SDK resubmits the original request),
 * `never` (it stays queued: `try_again` on every poll, until the client's timeout).
 */
export type FakeFutureFault = 'fail-user' | 'fail-server' | 'expire' | 'never';

export interface FakeTinkerRequestInfo {
  method: string;
  /** The path after `/api/v1/`, e.g. `forward_backward`, `training_runs/run-000001/checkpoints`. */
  route: string;
  body: Record<string, unknown> | undefined;
  /** How many times this method, route and body came before (0 on the first). */
  attempt: number;
}

export interface FakeTinkerOptions {
  /** Base models by name. Default: the tiny-chat fixture's (`skillrl/tiny-chat`, `skillrl/tiny-editor`). */
  baseModels?: Record<string, FakeBaseModelSpec>;
  /** When set, every request must carry it in `X-API-Key` (the SDK's header); others get 401. */
  apiKey?: string;
  /** A 401 names the key it was given, as some servers do: clients must redact it. Default false. */
  echoKeyInErrors?: boolean;
  /** Seed of fault draws and of sampling without a seed. Default 0. */
  seed?: number;
  port?: number;
  /** Added before every answer. Default 0. */
  latencyMs?: number;
  faults?: {
    /** Chooses the fault of a request (before `rate`). */
    plan?: (request: FakeTinkerRequestInfo) => FakeTinkerFault | undefined;
    /** Probability of a drawn fault on each request, from (seed, route, body, attempt). Default 0. */
    rate?: number;
    kinds?: readonly FakeTinkerFault[];
    /** `retry-after-ms` of a 429 (0: no `retry-after` headers at all). Default 5. */
    retryAfterMs?: number;
    /**
     * Faults in a row: each streak answers the first `count` requests to its routes with its fault (429 many
     * times in a row, an outage of 500s, a billing pause of 402s), before `plan` and `rate` are asked.
     */
    streaks?: FakeTinkerFaultStreak[];
  };
  futures?: {
    /** Polls of a future answered `try_again` before its result. Default 1 (a future resolves later). */
    pendingPolls?: number;
    /** Chooses what happens to a future. */
    plan?: (request: FakeTinkerRequestInfo & { requestId: string }) => FakeFutureFault | undefined;
    /**
     * How long the work of a request takes, by route (e.g. `{ forward_backward: 50 }`): its future is not
     * done before then, and a poll that comes earlier is held until it is (futures run side by side, as a
     * service's batches do). Default none.
     */
    workMs?: Partial<Record<string, number>>;
  };
  /**
   * The wire format of `forward_backward` and its results: `json` (skyrl-tx's, the older SDKs'; a protobuf
   * body gets 415), `protobuf` (SDK 0.25's only: a JSON `forward_backward`/`forward` gets 415, a result not
   * asked for as protobuf 406), or `both`. Default `json`.
   */
  wire?: 'json' | 'protobuf' | 'both';
  /**
   * Training calls of a model run in `seq_id` order (1, 2, 3 … from its creation): one that arrives ahead of
   * its turn waits for those before it, for at most this long. Default 100 ms.
   */
  seqGapMs?: number;
  /** Keep each request's route, body and headers (API keys removed) in `requests`. Default true. */
  record?: boolean;
}

export interface FakeTinkerRecordedRequest {
  method: string;
  route: string;
  status: number;
  body: Record<string, unknown> | undefined;
  /** Headers with `x-api-key` and `authorization` removed. */
  headers: IncomingHttpHeaders;
  idempotencyKey?: string;
  fault?: FakeTinkerFault;
  /** What the server let pass but a strict one might not (e.g. sampling without a sampling session). */
  warning?: string;
}

/** One `optim_step` that changed a training run's weights. */
export interface FakeTinkerUpdate {
  /** The digest of what produced it: every `forward_backward` datum since the last step, the loss, Adam's params. */
  digest: string;
  datums: number;
  tokens: number;
  lossFn: string;
  lossSum: number;
  /** sha256 of the weights after the step. */
  weights: string;
}

export interface FakeTinkerCheckpoint {
  checkpointId: string;
  type: 'training' | 'sampler';
  tinkerPath: string;
  /** The updates that produced these weights, oldest first (carried through `load_weights`). */
  lineage: string[];
  weights: string;
}

export interface FakeTinkerTrainingRun {
  id: string;
  sessionId: string;
  baseModel: string;
  rank: number;
  /** The updates the current weights descend from, oldest first. */
  lineage: string[];
  /** Every update applied in this run, in order (the lineage can be rewound by `load_weights`). */
  updates: FakeTinkerUpdate[];
  checkpoints: FakeTinkerCheckpoint[];
  /** Datums of `forward_backward` calls not yet consumed by an `optim_step`. */
  pendingDatums: number;
  loads: { path: string; optimizer: boolean }[];
  weights: string;
}

export interface FakeTinkerStats {
  received: number;
  byRoute: Record<string, number>;
  faulted: Partial<Record<FakeTinkerFault, number>>;
  futures: { created: number; tryAgain: number; resolved: number; failed: number; expired: number };
  idempotentReplays: number;
  heartbeats: number;
  /** Requests let pass with a warning (see `FakeTinkerRecordedRequest.warning`), in order. */
  warnings: { route: string; warning: string }[];
}

export interface FakeTinkerServer {
  /** `http://127.0.0.1:<port>`: the `base_url` the SDK takes (routes are under `/api/v1`). */
  readonly url: string;
  readonly port: number;
  readonly requests: FakeTinkerRecordedRequest[];
  stats(): FakeTinkerStats;
  sessions(): { id: string; heartbeats: number; tags: string[]; sdkVersion: string }[];
  /** Every sampling session, in order of creation, with what it samples: a base model or a sampler checkpoint. */
  samplingSessions(): { id: string; baseModel?: string; modelPath?: string }[];
  trainingRuns(): FakeTinkerTrainingRun[];
  trainingRun(id: string): FakeTinkerTrainingRun | undefined;
  /** The lineage of the weights at a `tinker://` path (a training or sampler checkpoint). */
  lineageOf(tinkerPath: string): string[] | undefined;
  close(): Promise<void>;
}
