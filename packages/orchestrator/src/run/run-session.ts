import { existsSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type {
  Agent,
  JsonObject,
  JsonValue,
  RunEvent,
  RunStore,
  TaskAdapter,
  Trajectory,
} from '@skillrl/core';
import { openRunStore, RunStoreError, redactObject } from '@skillrl/core';
import { collectRollouts, type PlannedEpisode } from '@skillrl/rollout';
import type { Persistence } from '../components/component-types.js';
import type { RunOptions, RunProgress, RunResult } from './run-types.js';

/** What a run's episodes run with: the parts and the config's limits. */
export interface EpisodeRunContext {
  adapter: TaskAdapter;
  agent: Agent;
  concurrency: number;
  maxSteps?: number;
  /** Skill-R1's generation, recorded on every trajectory. */
  generation?: number;
}

type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
export type EventInput = DistributiveOmit<RunEvent, 'runId' | 'time'>;

/** The part of the run.json file resume needs to find the config and the packages it named. */
export interface RunManifest {
  runId: string;
  method: 'evolve' | 'internalize';
  /** The config file the run started from: packages resolve from its directory. */
  configPath: string;
  components: Record<string, string>;
}

export interface CheckpointValue {
  /** Units (generations or steps) finished. */
  completed: number;
  state: JsonValue;
  components: Record<string, { kind: 'json'; value: JsonValue } | { kind: 'dir'; path: string }>;
}

function eventKey(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run:start':
      return 'run:start';
    case 'rollout':
      return `rollout:${event.trajectoryId}`;
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

/**
 * One run directory in use: events and rollouts appended as they happen, checkpoints at unit boundaries,
 * and — after a crash — the records already on disk, so a resumed unit reuses every rollout it had finished
 * and no event is written twice.
 */
export class RunSession {
  readonly store: RunStore;
  readonly runId: string;
  private readonly emitted = new Set<string>();
  private readonly done = new Map<string, Trajectory>();
  private readonly keyed = new Map<string, Map<string, JsonObject>>();
  private progress: RunProgress = { done: 0, total: 0, reused: 0, successRate: 0, phase: '' };
  private successes = 0;
  ran = 0;

  constructor(
    readonly dir: string,
    private readonly options: RunOptions,
  ) {
    this.store = openRunStore(dir, options.onWarning ? { onWarning: options.onWarning } : {});
    this.runId = dir.split(/[\\/]/).filter(Boolean).pop() as string;
    for (const event of this.store.read<RunEvent>('events')) {
      const key = eventKey(event);
      if (key) this.emitted.add(key);
    }
    for (const trajectory of this.store.read<Trajectory>('rollouts'))
      this.done.set(trajectory.id, trajectory);
  }

  get resumed(): boolean {
    return this.emitted.has('run:start');
  }

  writeJson(relativePath: string, value: unknown): void {
    this.store.writeFile(relativePath, `${JSON.stringify(redactObject(value), null, 2)}\n`);
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
    if (key) this.emitted.add(key);
    this.store.append('events', redactObject(event));
    this.options.onEvent?.(event);
  }

  /** A trajectory already in rollouts.jsonl (for replaying a learner's updates on resume). */
  storedTrajectory(id: string): Trajectory {
    const trajectory = this.done.get(id);
    if (!trajectory)
      throw new RunStoreError(this.dir, `rollouts.jsonl has no trajectory "${id}"; the run is incomplete`);
    return trajectory;
  }

  /** Rollouts taken from disk so far in this process. */
  get reused(): number {
    return this.progress.reused;
  }

  /** Counts stored rollouts of units a checkpoint already covers, so progress starts where the run stopped. */
  creditStored(covered: (trajectory: Trajectory) => boolean): void {
    for (const trajectory of this.done.values()) {
      if (!covered(trajectory)) continue;
      this.progress.done++;
      if (trajectory.verdict.passed) this.successes++;
    }
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

  /**
   * Runs planned episodes under `prefix` (the unit: `g2`, `s7`, `v10`) through rollout's `collectRollouts`,
   * with ids `<prefix>/<planned id>` (seeds stay the plan's). Episodes whose id is already in rollouts.jsonl
   * are taken from disk; new ones are appended as they finish. Results are in plan order.
   */
  runEpisodes(
    plan: readonly PlannedEpisode[],
    prefix: string,
    ctx: EpisodeRunContext,
  ): Promise<Trajectory[]> {
    const signal = this.options.signal;
    return collectRollouts({
      plan: plan.map((e) => ({ ...e, id: `${prefix}/${e.id}`, groupId: `${prefix}/${e.groupId}` })),
      adapter: ctx.adapter,
      agent: ctx.agent,
      concurrency: ctx.concurrency,
      ...(ctx.maxSteps !== undefined ? { maxSteps: ctx.maxSteps } : {}),
      ...(ctx.generation !== undefined ? { generation: ctx.generation } : {}),
      ...(signal ? { signal } : {}),
      stored: (episode) => this.done.get(episode.id),
      onTrajectory: (trajectory, { reused }) => {
        if (!reused) {
          this.store.append('rollouts', trajectory);
          this.done.set(trajectory.id, trajectory);
          this.ran++;
        }
        this.count(trajectory, reused);
        this.rolloutEvent(trajectory);
      },
    }).collect();
  }

  /** Appends a record keyed by `key` unless one with that key is already in the stream (a resumed unit). */
  appendOnce(stream: string, key: string, record: JsonObject): void {
    let keys = this.keyed.get(stream);
    if (!keys) {
      keys = new Map(this.store.read<JsonObject>(stream).map((r) => [String(r.key), r]));
      this.keyed.set(stream, keys);
    }
    if (keys.has(key)) return;
    const full = { key, ...record };
    this.store.append(stream, full);
    keys.set(key, full);
  }

  /** The record appended under `key`, if any. */
  readKeyed<T>(stream: string, key: string): T | undefined {
    let keys = this.keyed.get(stream);
    if (!keys) {
      keys = new Map(this.store.read<JsonObject>(stream).map((r) => [String(r.key), r]));
      this.keyed.set(stream, keys);
    }
    return keys.get(key) as T | undefined;
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

  /** Writes learners' state (folders first), then the snapshot that points at it, then the event. */
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
        const dir = join(this.store.dir, 'checkpoints', `state-${String(completed).padStart(6, '0')}`, role);
        // A folder left by a save that a crash interrupted is never referenced; start it clean.
        if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
        await persistence.save(component.value, dir);
        saved[role] = { kind: 'dir', path: relative(this.store.dir, dir) };
      }
    }
    const value: CheckpointValue = { completed, state, components: saved };
    const snapshot = this.store.writeSnapshot('checkpoint', value);
    this.emit({ type: 'checkpoint', step: completed, path: relative(this.store.dir, snapshot.path) });
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

  /** Records why a run stopped (`cancelled` when its signal aborted, else `failed`); the caller rethrows. */
  fail(error: unknown, signal?: AbortSignal): void {
    this.emit({
      type: 'run:end',
      status: signal?.aborted ? 'cancelled' : 'failed',
      error: error instanceof Error ? error.message : String(error),
    });
  }

  close(): void {
    this.store.close();
  }
}
