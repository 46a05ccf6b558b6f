import type {
  CurriculumState,
  FamilyValidation,
  GenerationEvent,
  RolloutEvent,
  RunEndEvent,
  RunEvent,
  StepEvent,
  ValidationEvent,
  WorkersEvent,
} from '@skillrl/core';

/** One family's side of a paired validation, as the charts need it. */
export interface ValidationFamily {
  withSkill: number;
  withoutSkill: number;
  withSkillEpisodes?: number;
  withoutSkillEpisodes?: number;
}

export interface ValidationPoint {
  step: number;
  families: Record<string, ValidationFamily>;
  lambda: Record<string, number>;
  rho: Record<string, number>;
  retired: string[];
  frozenPolicy: boolean;
}

export interface GenerationPoint {
  generation: number;
  meanReward: number;
  bestReward: number;
  bestSkill: string;
}

/** An error message the run recorded, grouped by its text. */
export interface ErrorGroup {
  message: string;
  code?: string;
  count: number;
  lastTime: string;
  /** A rollout that ended with it (its trajectory can be opened). */
  example?: string;
}

/** Success counts on the held-out unit, per task and side: [with passed, with n, without passed, without n]. */
export type HeldOutCounts = Map<string, [number, number, number, number]>;

/** Training metrics kept per step: what the charts draw, not every metric a step reports. */
export const STEP_METRICS = [
  'success',
  'success_with',
  'success_without',
  'share_with',
  'train_loss',
] as const;
const MAX_ERROR_GROUPS = 50;
const MAX_NOTES = 200;
/** Units whose ids name a held-out measurement: the SKILLC test, Skill-R1's final (held-out) evaluation. */
const HELD_OUT_UNITS = new Set(['test', 'final', 'hfinal']);

const TRAJECTORY_ID = /"trajectoryId":"([^"]*)"/;
const FAMILY = /"family":"([^"]*)"/;
const TIME = /"time":"([^"]*)"/;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function numbers(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => finite(e[1])));
}

/** The unit a rollout id belongs to: its prefix before the first `/` (`s12`, `v10`, `g3`, `test`, `final`). */
export function unitOf(id: string): string {
  const slash = id.indexOf('/');
  return slash === -1 ? '' : id.slice(0, slash);
}

/**
 * What one run's events stream says, folded record by record as the tail reads it: how the run stands, its
 * health, and the series its charts draw. Memory is bounded by steps, generations and tasks, not by
 * rollouts: a rollout event adds to counters (and, on the held-out units only, to per-task counts).
 */
export class RunState {
  events = 0;
  startedAt: string | undefined;
  lastEventAt: string | undefined;
  /** `run:start`'s method (`internalize:skillc`, `evolve:grpo`) of the last start. */
  startMethod: string | undefined;
  seed: number | undefined;
  starts = 0;
  /** The last `run:end` after the last `run:start`; undefined while the run goes on (or was killed). */
  end: RunEndEvent | undefined;
  rollouts = 0;
  errored = 0;
  rerun = 0;
  private readonly erroredIds = new Set<string>();
  readonly errors = new Map<string, ErrorGroup>();
  readonly voidUnits: { unit: string; reason: string }[] = [];
  readonly workers: WorkersEvent[] = [];
  readonly steps = new Map<number, Record<string, number>>();
  readonly validations = new Map<number, ValidationPoint>();
  /** Evolve: per task, per generation. */
  readonly generations = new Map<string, Map<number, GenerationPoint>>();
  /** Held-out units' outcomes per task, by unit (`test`, `final`, `hfinal`). */
  readonly heldOut = new Map<string, HeldOutCounts>();
  /** Families seen in rollouts, in first-seen order. */
  readonly families = new Set<string>();
  maxStep = 0;
  maxGeneration = -1;
  /** Lines that were not JSON, or not events. */
  skipped = 0;

  /** Folds one events line. */
  add(text: string): void {
    if (this.addPlainRollout(text)) return;
    let event: RunEvent;
    try {
      event = JSON.parse(text) as RunEvent;
    } catch {
      this.skipped++;
      return;
    }
    if (typeof event !== 'object' || event === null || typeof event.type !== 'string') {
      this.skipped++;
      return;
    }
    this.events++;
    if (typeof event.time === 'string') this.lastEventAt = event.time;
    switch (event.type) {
      case 'run:start':
        this.starts++;
        this.startedAt ??= event.time;
        this.startMethod = typeof event.method === 'string' ? event.method : undefined;
        this.seed = finite(event.seed) ? event.seed : undefined;
        this.end = undefined;
        break;
      case 'run:end':
        this.end = event;
        if (event.error) this.noteError(event.error, 'run', event.time);
        break;
      case 'rollout':
        this.addRollout(event);
        break;
      case 'step':
        this.addStep(event);
        break;
      case 'validation':
        this.addValidation(event);
        break;
      case 'generation':
        this.addGeneration(event);
        break;
      case 'workers':
        if (this.workers.length < MAX_NOTES) this.workers.push(event);
        break;
      default:
        break;
    }
  }

  /**
   * A rollout event that ended without error, outside the held-out units, counted from three fields read off
   * its line: a long run's events are nearly all such lines, and parsing each one whole is what made the
   * first read of a 100k-rollout run slow. Anything else (an error, a held-out unit, an id seen errored, an
   * escaped string) is parsed as usual. The run writes `type` first.
   */
  private addPlainRollout(text: string): boolean {
    if (!text.startsWith('{"type":"rollout"') || text.includes('"error"') || text.includes('\\'))
      return false;
    const id = TRAJECTORY_ID.exec(text)?.[1];
    if (id === undefined || HELD_OUT_UNITS.has(unitOf(id)) || this.erroredIds.has(id)) return false;
    const family = FAMILY.exec(text)?.[1];
    const time = TIME.exec(text)?.[1];
    this.events++;
    this.rollouts++;
    if (family !== undefined && !this.families.has(family)) this.families.add(family);
    if (time !== undefined) this.lastEventAt = time;
    return true;
  }

  private addRollout(event: RolloutEvent): void {
    const id = String(event.trajectoryId);
    if (this.erroredIds.has(id)) {
      // Run again on resume: the same rollout, counted once, as it finally ended.
      this.erroredIds.delete(id);
      this.errored--;
      this.rerun++;
    } else {
      this.rollouts++;
    }
    if (typeof event.family === 'string') this.families.add(event.family);
    if (event.error) {
      this.errored++;
      this.erroredIds.add(id);
      this.noteError(event.error, undefined, event.time, id);
      return;
    }
    const unit = unitOf(id);
    if (HELD_OUT_UNITS.has(unit) && typeof event.taskId === 'string') {
      const byTask = this.heldOut.get(unit) ?? new Map();
      this.heldOut.set(unit, byTask);
      const counts = byTask.get(event.taskId) ?? [0, 0, 0, 0];
      const side = event.condition === 1 ? 0 : 2;
      counts[side] += event.passed ? 1 : 0;
      counts[side + 1] += 1;
      byTask.set(event.taskId, counts);
    }
  }

  private addStep(event: StepEvent): void {
    if (!finite(event.step)) return;
    const kept: Record<string, number> = {};
    for (const key of STEP_METRICS) {
      const v = event.metrics?.[key];
      if (finite(v)) kept[key] = v;
    }
    this.steps.set(event.step, kept);
    this.maxStep = Math.max(this.maxStep, event.step);
    if (event.void) this.noteVoid(`s${event.step}`, event.void);
  }

  private addValidation(event: ValidationEvent): void {
    if (!finite(event.step)) return;
    const families: Record<string, ValidationFamily> = {};
    for (const [family, v] of Object.entries(event.validation?.families ?? {})) {
      const value = v as FamilyValidation | undefined;
      if (!value || !finite(value.withSkill) || !finite(value.withoutSkill)) continue;
      families[family] = {
        withSkill: value.withSkill,
        withoutSkill: value.withoutSkill,
        ...(finite(value.withSkillEpisodes) ? { withSkillEpisodes: value.withSkillEpisodes } : {}),
        ...(finite(value.withoutSkillEpisodes) ? { withoutSkillEpisodes: value.withoutSkillEpisodes } : {}),
      };
    }
    const curriculum: Partial<CurriculumState> = event.curriculum ?? {};
    this.validations.set(event.step, {
      step: event.step,
      families,
      lambda: numbers(curriculum.lambda),
      rho: numbers(curriculum.rho),
      retired: Array.isArray(curriculum.retired)
        ? curriculum.retired.filter((f) => typeof f === 'string')
        : [],
      frozenPolicy: event.frozenPolicy === true,
    });
    this.maxStep = Math.max(this.maxStep, event.step);
  }

  private addGeneration(event: GenerationEvent): void {
    if (!finite(event.generation) || typeof event.taskId !== 'string') return;
    const byGen = this.generations.get(event.taskId) ?? new Map<number, GenerationPoint>();
    this.generations.set(event.taskId, byGen);
    byGen.set(event.generation, {
      generation: event.generation,
      meanReward: finite(event.meanReward) ? event.meanReward : Number.NaN,
      bestReward: finite(event.bestReward) ? event.bestReward : Number.NaN,
      bestSkill: typeof event.bestSkill === 'string' ? event.bestSkill : '',
    });
    this.maxGeneration = Math.max(this.maxGeneration, event.generation);
    if (event.void) this.noteVoid(`g${event.generation} ${event.taskId}`, event.void);
  }

  private noteVoid(unit: string, reason: string): void {
    if (this.voidUnits.length < MAX_NOTES) this.voidUnits.push({ unit, reason: String(reason) });
  }

  private noteError(
    error: string | { code?: string; message?: string },
    code: string | undefined,
    time: string,
    example?: string,
  ): void {
    const message = typeof error === 'string' ? error : String(error.message ?? JSON.stringify(error));
    const key = message.slice(0, 500);
    const group = this.errors.get(key);
    if (group) {
      group.count++;
      group.lastTime = time;
      return;
    }
    if (this.errors.size >= MAX_ERROR_GROUPS) return;
    const errorCode = typeof error === 'object' && typeof error.code === 'string' ? error.code : code;
    this.errors.set(key, {
      message: key,
      ...(errorCode ? { code: errorCode } : {}),
      count: 1,
      lastTime: time,
      ...(example ? { example } : {}),
    });
  }
}
