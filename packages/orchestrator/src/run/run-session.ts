import { setMaxListeners } from 'node:events';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type {
  Agent,
  HealthKind,
  JsonObject,
  JsonValue,
  Persistence,
  RunEvent,
  RunStore,
  TaskAdapter,
  Trajectory,
} from '@skillrl/core';
import {
  CHECKPOINT_DIR,
  type HealthOptions,
  LatestRecords,
  openRunStore,
  RunStoreError,
  redactObject,
  redactUrlsIn,
  resolveHealthOptions,
  resolveStoreOptions,
  type StoreOptions,
} from '@skillrl/core';
import {
  type CollectRolloutsOptions,
  collectRollouts,
  type EndpointInfo,
  ErrorBudget,
  type PlannedEpisode,
  type RolloutRun,
} from '@skillrl/rollout';
import { traceUnit } from '../trace/unit-span.js';
import { type EditorPorts, withEditorBudget } from './health/editor-budget.js';
import { SignalGuard } from './health/signal-guard.js';
import type { RunOptions, RunProgress, RunResult } from './run-types.js';

/** What a run's episodes run with: the parts and the config's limits. */
export interface EpisodeRunContext {
  adapter: TaskAdapter;
  agent: Agent;
  concurrency: number;
  maxSteps?: number;
  /** Skill-R1's generation, recorded on every trajectory. */
  generation?: number;
  /** How the agent's state is saved (a trained policy): what a worker elsewhere needs to act as it does. */
  agentPersistence?: Persistence<Agent>;
}

/**
 * Where a unit's episodes run, behind rollout's `collectRollouts` contract: in this process by default, or
 * on rollout workers (`workers:` in the config). Asked once per unit, so it can ship the agent's state then.
 */
export interface EpisodeSource {
  forUnit(ctx: EpisodeRunContext): Promise<(options: CollectRolloutsOptions) => RolloutRun>;
  close(): Promise<void>;
}

type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
export type EventInput = DistributiveOmit<RunEvent, 'runId' | 'time'>;

export interface CheckpointValue {
  /** Units (generations or steps) finished. */
  completed: number;
  state: JsonValue;
  components: Record<string, { kind: 'json'; value: JsonValue } | { kind: 'dir'; path: string }>;
}

/** The config's parts the session itself reads: the error budget, the store's layout, the endpoints. */
export interface SessionSettings {
  health?: HealthOptions;
  store?: StoreOptions;
  endpoints?: Partial<Record<HealthKind, EndpointInfo>>;
}

const STATE_DIR = /^state-\d+$/;

/** One unit's rollouts as they finally ended (units.jsonl, written when the unit passed the error budget). */
export interface UnitAccount {
  /** Rollouts of the unit (each planned episode once, however often it ran). */
  rollouts: number;
  /** Of those, rollouts that ended in an error (kept: an error that is not a model call's, under budget). */
  errored: number;
  /** Rollouts run again because their stored copy had ended in a failed model call (a resumed unit). */
  rerun: number;
}

/** The run's rollouts as summary.json reports them: totals, and per unit where anything went wrong. */
export interface RolloutAccount extends UnitAccount {
  units: Record<string, UnitAccount>;
}

function eventKey(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run:start':
      return 'run:start';
    case 'rollout':
      // An episode whose model call failed runs again on resume: its second event is not a repeat.
      return `rollout:${event.trajectoryId}${event.error ? ':error' : ''}`;
    case 'generation':
      return `generation:${event.taskId}:${event.generation}`;
    case 'step':
      return `step:${event.step}`;
    case 'validation':
      return `validation:${event.step}`;
    case 'checkpoint':
      return `checkpoint:${event.step}`;
    default:
      return undefined;
  }
}

/** A stored rollout that ended because its model call failed is run again rather than reused. */
const reusable = (t: Trajectory | undefined): t is Trajectory => t !== undefined && t.error?.code !== 'model';

/**
 * A key this process appended to a keyed stream, its record not kept in memory: a run appends an advantages
 * record (a row per rollout) every unit, and holding them all grew a 400-step run's heap, and V8's heap
 * limit several times over, with its length. `readKeyed` reads such a record back from the stream.
 */
const APPENDED: unique symbol = Symbol('appended');
/** Keyed streams whose records this process keeps whole: `rolloutAccount` sums units.jsonl's (small). */
const KEPT_WHOLE: ReadonlySet<string> = new Set(['units']);

/**
 * One run directory in use: events and rollouts appended as they happen, checkpoints at unit boundaries
 * (the newest `store.keepCheckpoints` kept), the error budget (`health`) watching every call, and — after a
 * crash — the records already on disk, so a resumed unit reuses every rollout it had finished and no event
 * is written twice. Memory does not grow with the run's length: trajectories are read back from disk by id
 * when a resume needs them, never all held.
 */
export class RunSession {
  readonly store: RunStore;
  readonly runId: string;
  private readonly emitted = new Set<string>();
  /** From the rollout events on disk, for progress on resume; dropped once used. */
  private storedOutcomes: Map<string, { passed: boolean; generation?: number }> | undefined;
  private storedIndex: LatestRecords | undefined;
  private readonly hadRollouts: boolean;
  private readonly keyed = new Map<string, Map<string, JsonObject | typeof APPENDED>>();
  private progress: RunProgress = { done: 0, total: 0, reused: 0, successRate: 0, phase: '' };
  private successes = 0;
  private readonly budget: ErrorBudget;
  private readonly signalGuard: SignalGuard;
  private readonly controller = new AbortController();
  private readonly detachSignal: () => void;
  private readonly keepCheckpoints: number;
  private source: EpisodeSource | undefined;
  ran = 0;

  constructor(
    readonly dir: string,
    private readonly options: RunOptions,
    settings: SessionSettings = {},
  ) {
    const layout = resolveStoreOptions(settings.store);
    this.keepCheckpoints = layout.keepCheckpoints;
    this.store = openRunStore(dir, {
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      segmentBytes: layout.segmentBytes,
      compression: layout.compression,
      // A run smaller than one segment is compressed too when it ends (store.compressOnCloseBytes).
      segmentOnClose: layout.compression === 'gzip' && layout.compressOnCloseBytes < layout.segmentBytes,
      segmentOnCloseBytes: layout.compressOnCloseBytes,
    });
    this.runId = dir.split(/[\\/]/).filter(Boolean).pop() as string;
    const outcomes = new Map<string, { passed: boolean; generation?: number }>();
    for (const event of this.store.iterate<RunEvent>('events')) {
      const key = eventKey(event);
      if (key) this.emitted.add(key);
      if (event.type === 'rollout') {
        outcomes.set(event.trajectoryId, {
          passed: event.passed,
          ...(event.generation !== undefined ? { generation: event.generation } : {}),
        });
      }
    }
    this.storedOutcomes = outcomes.size > 0 ? outcomes : undefined;
    this.hadRollouts = this.store.count('rollouts') > 0;
    const unknown = { endpoint: 'unknown' };
    const health = resolveHealthOptions(settings.health);
    this.signalGuard = new SignalGuard(health.voidUnits, dir, options.onWarning);
    this.budget = new ErrorBudget(
      health,
      {
        rollout: settings.endpoints?.rollout ?? unknown,
        editor: settings.endpoints?.editor ?? unknown,
      },
      dir,
    );
    // Every concurrent editor call (an evolve generation proposes for many tasks at once) listens on this
    // signal and removes its listener when the call settles; Node's default of 10 warned of a leak
    // (MaxListenersExceededWarning) where there is none.
    setMaxListeners(0, this.controller.signal);
    const outer = options.signal;
    const follow = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) follow();
    else outer?.addEventListener('abort', follow, { once: true });
    this.detachSignal = () => outer?.removeEventListener('abort', follow);
  }

  /** Sends episodes somewhere other than this process (rollout workers); no method step knows. */
  useEpisodeSource(source: EpisodeSource): void {
    this.source = source;
  }

  get resumed(): boolean {
    return this.emitted.has('run:start');
  }

  /** Aborted by the caller's signal (Ctrl-C, SIGTERM) or when the error budget trips. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  writeJson(relativePath: string, value: unknown): void {
    this.store.writeFile(relativePath, `${JSON.stringify(redactObject(redactUrlsIn(value)), null, 2)}\n`);
  }

  readJson<T>(relativePath: string): T | undefined {
    const text = this.store.readFile(relativePath);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  /** Appends an event (once: a resumed unit does not repeat what the interrupted one wrote). */
  emit(input: EventInput): void {
    const event = { ...input, runId: this.runId, time: new Date().toISOString() } as RunEvent;
    const key = eventKey(event);
    if (key && this.emitted.has(key)) return;
    // A rollout event is emitted once per process anyway; only those on disk need remembering, so the set
    // does not grow with the run.
    if (key && event.type !== 'rollout') this.emitted.add(key);
    this.store.append('events', redactObject(redactUrlsIn(event)));
    this.options.onEvent?.(event);
  }

  private stored(): LatestRecords | undefined {
    if (!this.hadRollouts) return undefined;
    this.storedIndex ??= new LatestRecords(this.store.dir);
    return this.storedIndex;
  }

  /** A trajectory already in rollouts.jsonl (for replaying a learner's updates on resume), read from disk. */
  storedTrajectory(id: string): Trajectory {
    const trajectory = this.stored()?.get(id);
    if (!trajectory)
      throw new RunStoreError(this.dir, `rollouts.jsonl has no trajectory "${id}"; the run is incomplete`);
    return trajectory;
  }

  /** Rollouts taken from disk so far in this process. */
  get reused(): number {
    return this.progress.reused;
  }

  /** Counts stored rollouts of units a checkpoint already covers, so progress starts where the run stopped. */
  creditStored(covered: (trajectory: Pick<Trajectory, 'id' | 'generation'>) => boolean): void {
    for (const [id, outcome] of this.storedOutcomes ?? []) {
      const t = { id, ...(outcome.generation !== undefined ? { generation: outcome.generation } : {}) };
      if (!covered(t)) continue;
      this.progress.done++;
      if (outcome.passed) this.successes++;
    }
    this.storedOutcomes = undefined;
    this.progress.successRate = this.progress.done ? this.successes / this.progress.done : 0;
    this.report();
  }

  setTotal(total: number): void {
    this.progress.total = total;
    this.report();
  }

  setPhase(phase: string): void {
    this.progress.phase = phase;
    this.report();
  }

  private report(): void {
    this.options.onProgress?.({ ...this.progress });
  }

  private count(trajectory: Trajectory, reused: boolean): void {
    this.progress.done++;
    if (reused) this.progress.reused++;
    if (trajectory.verdict.passed) this.successes++;
    this.progress.successRate = this.successes / this.progress.done;
    this.report();
  }

  /** Stops the run when the budget tripped: aborts what is in flight, then throws its error. */
  private throwIfTripped(): void {
    const tripped = this.budget.tripped;
    if (!tripped) return;
    if (!this.controller.signal.aborted) this.controller.abort(tripped);
    throw tripped;
  }

  /**
   * Runs planned episodes under `prefix` (the unit: `g2`, `s7`, `v10`) through rollout's `collectRollouts`,
   * with ids `<prefix>/<planned id>` (seeds stay the plan's). Episodes whose id is already in rollouts.jsonl
   * are taken from disk (except those whose model call failed: they run again); new ones are appended as
   * they finish and counted against the error budget, which stops the run when it is spent. Results are in
   * plan order.
   */
  runEpisodes(
    plan: readonly PlannedEpisode[],
    prefix: string,
    ctx: EpisodeRunContext,
  ): Promise<Trajectory[]> {
    // The unit's `skillrl.unit` span, parent of its episode spans (a no-op unless an OpenTelemetry SDK is registered).
    const unit = { runId: this.runId, unit: prefix, planned: plan.length, generation: ctx.generation };
    return traceUnit(unit, () => this.runUnitEpisodes(plan, prefix, ctx));
  }

  private async runUnitEpisodes(
    plan: readonly PlannedEpisode[],
    prefix: string,
    ctx: EpisodeRunContext,
  ): Promise<Trajectory[]> {
    // Rollouts follow a generation's proposals: the editor's first batch, if any, is complete.
    this.budget.closeBatch('editor');
    this.throwIfTripped();
    this.budget.openBatch('rollout');
    const stored = this.stored();
    let rerun = 0;
    let runs: Trajectory[];
    try {
      const collect = this.source ? await this.source.forUnit(ctx) : collectRollouts;
      runs = await collect({
        plan: plan.map((e) => ({ ...e, id: `${prefix}/${e.id}`, groupId: `${prefix}/${e.groupId}` })),
        adapter: ctx.adapter,
        agent: ctx.agent,
        concurrency: ctx.concurrency,
        ...(ctx.maxSteps !== undefined ? { maxSteps: ctx.maxSteps } : {}),
        ...(ctx.generation !== undefined ? { generation: ctx.generation } : {}),
        signal: this.controller.signal,
        stored: (episode) => {
          if (!stored?.has(episode.id)) return undefined;
          const t = stored.get(episode.id);
          if (reusable(t)) return t;
          rerun++;
          return undefined;
        },
        onTrajectory: (trajectory, { reused }) => {
          if (!reused) {
            this.store.append('rollouts', trajectory);
            this.ran++;
          }
          this.count(trajectory, reused);
          this.rolloutEvent(trajectory);
          if (!reused && this.budget.record('rollout', trajectory.error)) {
            // In-flight episodes are cancelled (not written); every finished one is on disk already.
            this.controller.abort(this.budget.tripped);
          }
        },
      }).collect();
    } catch (error) {
      this.throwIfTripped();
      throw error;
    } finally {
      stored?.release();
    }
    this.budget.closeBatch('rollout');
    this.throwIfTripped();
    // The unit as a whole, before its caller scores, checkpoints or carries anything of it.
    this.budget.judgeUnit(
      'rollout',
      prefix,
      runs.map((t) => t.error),
    );
    this.throwIfTripped();
    this.appendOnce('units', prefix, {
      unit: prefix,
      rollouts: runs.length,
      errored: runs.filter((t) => t.error).length,
      rerun,
    });
    return runs;
  }

  /**
   * The no-signal guard: a training unit (`s7`, `g3`) reports whether its update carried any learning signal
   * (`reason` when it did not). A void unit is warned about; `health.voidUnits` in a row stop the run with
   * `VoidSignalError` (exit 3), before the unit is checkpointed, so a resume runs it again.
   */
  judgeSignal(unit: string, reason: string | undefined): void {
    const tripped = this.signalGuard.observe(unit, reason);
    if (tripped) throw tripped;
  }

  /**
   * What the run's updates had to learn from, over the training units' events (`step`, `generation`) on
   * disk, so a resumed run counts its whole history: `units` (training units that reported their signal),
   * `voidUnits` (those whose event says why it was void), `zeroUpdates` (those whose update moved nothing),
   * and the sum of every other `signal_*` count and of
   * `rollouts_errored` (the errored rollouts the method steps left out of the math).
   */
  signalAccount(): Record<string, number> {
    const sums: Record<string, number> = {};
    const units = new Set<string>();
    const voids = new Set<string>();
    // A unit-level flag, which a generation repeats on each of its tasks' events: counted once per unit.
    const zeroUpdates = new Set<string>();
    const seen = new Set<string>();
    for (const e of this.store.iterate<RunEvent>('events')) {
      if (e.type !== 'step' && e.type !== 'generation') continue;
      // A generation reports per task; a unit is the generation.
      const key = e.type === 'step' ? `s${e.step}` : `g${e.generation}:${e.taskId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const unit = e.type === 'step' ? `s${e.step}` : `g${e.generation}`;
      const metrics = e.metrics ?? {};
      if (!Object.keys(metrics).some((k) => k.startsWith('signal_'))) continue;
      units.add(unit);
      if (e.void) voids.add(unit);
      if (metrics.signal_zero_update === 1) zeroUpdates.add(unit);
      for (const [k, v] of Object.entries(metrics)) {
        if (k === 'signal_zero_update' || k === 'signal_void') continue;
        if ((k.startsWith('signal_') || k === 'rollouts_errored') && typeof v === 'number') {
          sums[k] = (sums[k] ?? 0) + v;
        }
      }
    }
    return { units: units.size, voidUnits: voids.size, zeroUpdates: zeroUpdates.size, ...sums };
  }

  /** Every unit's rollouts as they finally ended, from units.jsonl (so a resumed run counts its whole history). */
  rolloutAccount(): RolloutAccount {
    const account: RolloutAccount = { rollouts: 0, errored: 0, rerun: 0, units: {} };
    for (const r of this.keyedRecords('units').values()) {
      if (r === APPENDED) continue; // never: units.jsonl is kept whole
      const unit = { rollouts: Number(r.rollouts), errored: Number(r.errored), rerun: Number(r.rerun) };
      account.rollouts += unit.rollouts;
      account.errored += unit.errored;
      account.rerun += unit.rerun;
      if (unit.errored > 0 || unit.rerun > 0) account.units[String(r.key)] = unit;
    }
    return account;
  }

  /**
   * Writes summary.json with the run's rollout account beside `summary`, after the last judgement: a run
   * whose every rollout ended in an error stops here (exit 3) instead of being recorded as completed.
   */
  writeSummary(summary: Record<string, unknown>): RolloutAccount {
    const account = this.rolloutAccount();
    if (account.rollouts > 0 && account.errored === account.rollouts) {
      let common: { code: string; message: string } | undefined;
      for (const t of this.store.iterate<Trajectory>('rollouts')) {
        if (t.error) {
          common = t.error;
          break;
        }
      }
      this.budget.judgeRun('rollout', account.rollouts, account.errored, common);
      this.throwIfTripped();
    }
    this.writeJson('summary.json', { ...summary, rolloutAccount: account });
    return account;
  }

  /**
   * An evolve generation's ports with the editor under the error budget (`withEditorBudget` of the health
   * code): every `propose` counted, the first batch judged before anything of it is stored.
   */
  withEditorBudget<P extends EditorPorts>(ports: P): P {
    return withEditorBudget(ports, {
      budget: this.budget,
      signal: this.controller.signal,
      throwIfTripped: () => this.throwIfTripped(),
    });
  }

  /** Appends a record keyed by `key` unless one with that key is already in the stream (a resumed unit). */
  appendOnce(stream: string, key: string, record: JsonObject): void {
    const keys = this.keyedRecords(stream);
    if (keys.has(key)) return;
    const full = { key, ...record };
    this.store.append(stream, full);
    keys.set(key, KEPT_WHOLE.has(stream) ? full : APPENDED);
  }

  /** The record appended under `key`, if any. */
  readKeyed<T>(stream: string, key: string): T | undefined {
    const record = this.keyedRecords(stream).get(key);
    if (record !== APPENDED) return record as T | undefined;
    for (const r of this.store.iterate<JsonObject>(stream)) if (String(r.key) === key) return r as T;
    return undefined;
  }

  private keyedRecords(stream: string): Map<string, JsonObject | typeof APPENDED> {
    let keys = this.keyed.get(stream);
    if (!keys) {
      keys = new Map();
      for (const r of this.store.iterate<JsonObject>(stream)) keys.set(String(r.key), r);
      this.keyed.set(stream, keys);
    }
    return keys;
  }

  private rolloutEvent(t: Trajectory): void {
    this.emit({
      type: 'rollout',
      trajectoryId: t.id,
      taskId: t.taskId,
      family: t.family,
      condition: t.condition,
      reward: t.reward,
      passed: t.verdict.passed,
      ...(t.generation !== undefined ? { generation: t.generation } : {}),
      ...(t.candidate !== undefined ? { candidate: t.candidate } : {}),
      ...(t.error ? { error: t.error.code } : {}),
    });
  }

  /**
   * Writes learners' state (folders first), then the snapshot that points at it, then the event; then
   * removes checkpoints older than the newest `store.keepCheckpoints` (never the one just written).
   */
  async checkpoint(
    completed: number,
    state: JsonValue,
    components: Record<string, { value: unknown; persistence?: Persistence<unknown> } | undefined>,
  ): Promise<void> {
    const saved: CheckpointValue['components'] = {};
    for (const [role, component] of Object.entries(components)) {
      const persistence = component?.persistence;
      if (!component || !persistence) continue;
      if (persistence.kind === 'json') {
        saved[role] = { kind: 'json', value: persistence.get(component.value) };
      } else {
        const dir = join(this.store.dir, CHECKPOINT_DIR, `state-${String(completed).padStart(6, '0')}`, role);
        // A folder left by a save that a crash interrupted is never referenced; start it clean.
        if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
        await persistence.save(component.value, dir);
        saved[role] = { kind: 'dir', path: relative(this.store.dir, dir) };
      }
    }
    const value: CheckpointValue = { completed, state, components: saved };
    const snapshot = this.store.writeSnapshot('checkpoint', value);
    this.emit({ type: 'checkpoint', step: completed, path: relative(this.store.dir, snapshot.path) });
    this.pruneCheckpoints();
  }

  /**
   * Keeps the newest snapshots and the learner-state folders they point at; removes the rest (and any
   * state folder no kept snapshot names: one a crash left half-written). Replay-based resume reads only
   * the latest snapshot and the streams, so nothing it needs goes.
   */
  private pruneCheckpoints(): void {
    const { kept } = this.store.pruneSnapshots<CheckpointValue>(this.keepCheckpoints);
    const referenced = new Set<string>();
    for (const snap of kept) {
      for (const c of Object.values(snap.value?.components ?? {})) {
        if (c.kind === 'dir') referenced.add(c.path.split(/[\\/]/)[1] ?? '');
      }
    }
    const folder = join(this.store.dir, CHECKPOINT_DIR);
    for (const entry of readdirSync(folder)) {
      if (STATE_DIR.test(entry) && !referenced.has(entry)) {
        rmSync(join(folder, entry), { recursive: true, force: true });
      }
    }
  }

  /** The latest checkpoint; its event is written now if a crash came between the snapshot and the event. */
  latestCheckpoint(): CheckpointValue | undefined {
    const snapshot = this.store.latestSnapshot<CheckpointValue>();
    if (!snapshot) return undefined;
    this.emit({
      type: 'checkpoint',
      step: snapshot.value.completed,
      path: relative(this.store.dir, snapshot.path),
    });
    return snapshot.value;
  }

  /** Restores one learner from a checkpoint; returns the instance to use from now on. */
  async restore<T>(
    component: { value: T; persistence?: Persistence<T> },
    saved: CheckpointValue['components'][string] | undefined,
  ): Promise<T> {
    const persistence = component.persistence;
    if (!saved || !persistence) return component.value;
    if (saved.kind === 'json' && persistence.kind === 'json') {
      await persistence.set(component.value, saved.value);
      return component.value;
    }
    if (saved.kind === 'dir' && persistence.kind === 'dir') {
      return persistence.load(join(this.store.dir, saved.path), component.value);
    }
    return component.value;
  }

  /** Records a finished run (`run:end` completed) and returns what `evolve`/`internalize` resolve to. */
  complete(method: RunResult['method'], metrics: Record<string, number>): RunResult {
    this.emit({ type: 'run:end', status: 'completed', metrics });
    return {
      runId: this.runId,
      dir: this.dir,
      method,
      status: 'completed',
      metrics,
      reused: this.reused,
      ran: this.ran,
    };
  }

  /**
   * Records why a run stopped (`cancelled` when the caller's signal aborted, else `failed`, the error
   * budget's stops included); the caller rethrows. Everything finished is on disk and the latest checkpoint
   * is consistent, so `skillrl resume` continues from it.
   */
  fail(error: unknown, signal?: AbortSignal): void {
    const cancelled = (signal ?? this.options.signal)?.aborted === true;
    this.emit({
      type: 'run:end',
      status: cancelled ? 'cancelled' : 'failed',
      error: error instanceof Error ? error.message : String(error),
    });
  }

  close(): void {
    this.detachSignal();
    // Its connections close in the background; nothing of the run waits on them.
    void this.source?.close().catch(() => {});
    this.storedIndex?.release();
    this.store.close();
  }
}
