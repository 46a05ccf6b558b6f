import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { recordIdOf, streamFiles, type Trajectory } from '@skillrl/core';
import { reallyInside } from './inside-dir.js';
import { unitOf } from './run-state.js';
import { StreamTail } from './stream-tail.js';

/** One rollout as the trajectory list shows and filters it (its trajectory is read only when opened). */
export interface RolloutRow {
  id: string;
  /** The unit it ran in: `s12`, `v10`, `g3`, `test`, `final`… (its id's prefix). */
  unit: string;
  taskId: string;
  family: string;
  condition: 0 | 1;
  reward: number;
  passed: boolean;
  error?: string;
  generation?: number;
  candidate?: number;
}

export interface RolloutFilter {
  family?: string;
  condition?: 0 | 1;
  unit?: string;
  /** Substring of the task id. */
  task?: string;
  /** `passed`, `failed`: the verdict; `errored`: ended in an error; `scored`: did not. */
  outcome?: 'passed' | 'failed' | 'errored' | 'scored';
  minReward?: number;
  maxReward?: number;
}

export interface RolloutPage {
  /** Rollouts in the run, and those the filter kept. */
  total: number;
  matched: number;
  offset: number;
  rows: RolloutRow[];
  families: string[];
  units: string[];
}

/** Where a trajectory's latest record sits: its place in the stream, its bytes in the file that holds it. */
interface Location {
  ordinal: number;
  start: number;
  end: number;
}

/** A rollout id's bytes are at the start of its line; this much is enough to read it without the rest. */
const ID_PREFIX_BYTES = 1024;

function rowOfEvent(e: Record<string, unknown>): RolloutRow | undefined {
  if (typeof e.trajectoryId !== 'string' || typeof e.taskId !== 'string') return undefined;
  return {
    id: e.trajectoryId,
    unit: unitOf(e.trajectoryId),
    taskId: e.taskId,
    family: typeof e.family === 'string' ? e.family : '',
    condition: e.condition === 1 ? 1 : 0,
    reward: typeof e.reward === 'number' ? e.reward : Number.NaN,
    passed: e.passed === true,
    ...(typeof e.error === 'string' ? { error: e.error } : {}),
    ...(typeof e.generation === 'number' ? { generation: e.generation } : {}),
    ...(typeof e.candidate === 'number' ? { candidate: e.candidate } : {}),
  };
}

function rowOfTrajectory(t: Trajectory): RolloutRow | undefined {
  if (typeof t?.id !== 'string') return undefined;
  return {
    id: t.id,
    unit: unitOf(t.id),
    taskId: String(t.taskId),
    family: String(t.family ?? ''),
    condition: t.condition === 1 ? 1 : 0,
    reward: typeof t.reward === 'number' ? t.reward : Number.NaN,
    passed: t.verdict?.passed === true,
    ...(t.error ? { error: t.error.message ?? String(t.error.code) } : {}),
    ...(typeof t.generation === 'number' ? { generation: t.generation } : {}),
    ...(typeof t.candidate === 'number' ? { candidate: t.candidate } : {}),
  };
}

const episodeIndex = (id: string): number => Number(/:i(\d+)$/.exec(id)?.[1] ?? Number.NaN);

/**
 * A run's rollouts for the trajectory views, followed as the run writes them. The rows (what the list filters
 * on) come from the rollout events, which carry every field the list needs at a few hundred bytes each; the
 * trajectories themselves (tens of kilobytes each) are only indexed — each id's latest record located by
 * its place in the stream and its byte range, read from the start of its line — and read one at a time when
 * opened. A re-run rollout (resume) replaces its row and its location, as core's `LatestRecords` reads it;
 * this index is kept incrementally instead, because a live run adds rollouts between every two requests.
 */
export class RolloutTable {
  private readonly rows: RolloutRow[] = [];
  private readonly rowOf = new Map<string, number>();
  private readonly byTask = new Map<string, number[]>();
  private readonly families = new Set<string>();
  private readonly units = new Set<string>();
  private readonly where = new Map<string, Location>();
  private readonly events: StreamTail;
  private readonly trajectories: StreamTail;
  private eventsHaveRollouts = false;
  private inflated: { path: string; data: Buffer } | undefined;

  constructor(
    private readonly dir: string,
    private readonly realRoot: string,
  ) {
    this.events = new StreamTail(dir, 'events', realRoot);
    this.trajectories = new StreamTail(dir, 'rollouts', realRoot);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Reads what the run appended since the last refresh. */
  refresh(): void {
    this.events.read({
      line: ({ bytes }) => {
        // Only rollout events are parsed; the run writes `type` first.
        if (bytes.indexOf('"rollout"') === -1) return;
        let e: Record<string, unknown>;
        try {
          e = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
        } catch {
          return;
        }
        if (e.type !== 'rollout') return;
        const row = rowOfEvent(e);
        if (row) {
          this.eventsHaveRollouts = true;
          this.upsert(row);
        }
      },
      reset: () => this.clear(),
    });
    this.readTrajectories();
  }

  private readTrajectories(): void {
    this.trajectories.read({
      line: ({ bytes, ordinal, start, end }) => {
        const prefix = bytes.subarray(0, ID_PREFIX_BYTES).toString('utf8');
        let id = recordIdOf(prefix);
        let record: Trajectory | undefined;
        if (id === undefined || !this.eventsHaveRollouts) {
          // A run that wrote no rollout events (an older layout): the rows come from the records themselves.
          try {
            record = JSON.parse(bytes.toString('utf8')) as Trajectory;
            id = typeof record.id === 'string' ? record.id : undefined;
          } catch {
            return;
          }
        }
        if (id === undefined) return;
        this.where.set(id, { ordinal, start, end });
        if (record && !this.eventsHaveRollouts) {
          const row = rowOfTrajectory(record);
          if (row) this.upsert(row);
        }
      },
      reset: () => {
        this.where.clear();
        this.inflated = undefined;
      },
    });
  }

  private clear(): void {
    this.rows.length = 0;
    this.rowOf.clear();
    this.byTask.clear();
    this.families.clear();
    this.units.clear();
  }

  private upsert(row: RolloutRow): void {
    const at = this.rowOf.get(row.id);
    if (at !== undefined) {
      this.rows[at] = row;
      return;
    }
    this.rowOf.set(row.id, this.rows.length);
    const key = `${row.unit}\u0000${row.taskId}`;
    const list = this.byTask.get(key);
    if (list) list.push(this.rows.length);
    else this.byTask.set(key, [this.rows.length]);
    this.rows.push(row);
    if (row.family) this.families.add(row.family);
    if (row.unit) this.units.add(row.unit);
  }

  row(id: string): RolloutRow | undefined {
    const at = this.rowOf.get(id);
    return at === undefined ? undefined : this.rows[at];
  }

  /** One page of the rollouts the filter keeps, in the order the run recorded them. */
  page(filter: RolloutFilter, offset: number, limit: number): RolloutPage {
    const task = filter.task?.toLowerCase();
    const keep = (r: RolloutRow): boolean =>
      (filter.family === undefined || r.family === filter.family) &&
      (filter.condition === undefined || r.condition === filter.condition) &&
      (filter.unit === undefined || r.unit === filter.unit) &&
      (task === undefined || r.taskId.toLowerCase().includes(task)) &&
      (filter.outcome === undefined ||
        (filter.outcome === 'errored' && r.error !== undefined) ||
        (filter.outcome === 'scored' && r.error === undefined) ||
        (filter.outcome === 'passed' && r.error === undefined && r.passed) ||
        (filter.outcome === 'failed' && r.error === undefined && !r.passed)) &&
      (filter.minReward === undefined || r.reward >= filter.minReward) &&
      (filter.maxReward === undefined || r.reward <= filter.maxReward);
    const rows: RolloutRow[] = [];
    let matched = 0;
    for (const r of this.rows) {
      if (!keep(r)) continue;
      if (matched >= offset && rows.length < limit) rows.push(r);
      matched++;
    }
    return {
      total: this.rows.length,
      matched,
      offset,
      rows,
      families: [...this.families].sort(),
      units: [...this.units],
    };
  }

  /**
   * The rollouts of the same task in the same unit under the other condition (z = 1 against z = 0), the
   * closest episode index first: the pair a reader compares side by side.
   */
  partners(id: string): RolloutRow[] {
    const row = this.row(id);
    if (!row) return [];
    const i = episodeIndex(id);
    return (this.byTask.get(`${row.unit}\u0000${row.taskId}`) ?? [])
      .map((at) => this.rows[at] as RolloutRow)
      .filter((r) => r.condition !== row.condition)
      .sort((a, b) => Math.abs(episodeIndex(a.id) - i) - Math.abs(episodeIndex(b.id) - i) || 0);
  }

  /** The trajectory's latest record, read from where the index says it is; undefined if not written (yet). */
  trajectory(id: string): Trajectory | undefined {
    const found = this.readAt(id);
    if (found !== null) return found;
    // The stream changed shape under the index (a repair rewrote it): read it again, once.
    this.where.clear();
    this.inflated = undefined;
    this.trajectories.rewind();
    this.readTrajectories();
    return this.readAt(id) ?? undefined;
  }

  /** undefined: no such id; null: the location no longer holds it. */
  private readAt(id: string): Trajectory | undefined | null {
    const at = this.where.get(id);
    if (!at) return undefined;
    let first = 0;
    for (const file of streamFiles(this.dir, 'rollouts')) {
      const n = file.records;
      if (n !== undefined && at.ordinal >= first + n) {
        first += n;
        continue;
      }
      if (!reallyInside(this.realRoot, file.path)) return undefined;
      try {
        const text = file.gzip ? this.inflatedText(file.path, at) : this.plainText(file.path, at);
        const record = JSON.parse(text) as Trajectory;
        return record.id === id ? record : null;
      } catch {
        return null;
      }
    }
    return null;
  }

  private plainText(path: string, at: Location): string {
    const buffer = Buffer.allocUnsafe(at.end - at.start);
    const fd = openSync(path, 'r');
    try {
      let off = 0;
      while (off < buffer.length) {
        const n = readSync(fd, buffer, off, buffer.length - off, at.start + off);
        if (n === 0) break;
        off += n;
      }
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  }

  private inflatedText(path: string, at: Location): string {
    // The last segment inflated is kept: the pair of a trajectory, and its neighbours in a list, usually
    // sit in the same segment.
    if (this.inflated?.path !== path) this.inflated = { path, data: gunzipSync(readFileSync(path)) };
    return this.inflated.data.toString('utf8', at.start, at.end);
  }
}
