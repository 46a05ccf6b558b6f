import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunManifest } from '@skillrl/core';
import { reallyInside } from './inside-dir.js';
import { RolloutTable } from './rollout-table.js';
import { RunState } from './run-state.js';
import { SkillBank } from './skill-bank.js';
import { runSignature, StreamTail } from './stream-tail.js';

function readJson(path: string, realRoot: string): Record<string, unknown> | undefined {
  try {
    if (!reallyInside(realRoot, path)) return undefined;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    // Missing, or caught mid-write by a non-atomic writer: the next refresh reads it again.
    return undefined;
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * One run directory as the server follows it: its events folded into a `RunState` by a tail (each record read
 * once), its identity and config reread only when their files change, and — made on first use, since most
 * runs in a list are never opened — its rollout table and its skill bank.
 */
export class RunReader {
  state = new RunState();
  manifest: (Partial<RunManifest> & Record<string, unknown>) | undefined;
  config: Record<string, unknown> | undefined;
  /** summary.json, once the run has written it (at its end). */
  summary: Record<string, unknown> | undefined;
  /** Changes whenever anything the views read changed (stats only). */
  signature = '';
  /** Bumped each time a refresh found something new: what live clients compare. */
  version = 0;
  private readonly events: StreamTail;
  private readonly fileTimes = new Map<string, number>();
  private table: RolloutTable | undefined;
  private tableUsedAt = 0;
  private bank: SkillBank | undefined;

  constructor(
    readonly id: string,
    readonly dir: string,
    private readonly realRoot: string,
  ) {
    this.events = new StreamTail(dir, 'events', realRoot);
  }

  /** Reads what changed since the last refresh; true if anything did. */
  refresh(): boolean {
    const signature = runSignature(this.dir);
    if (signature === this.signature) return false;
    this.signature = signature;
    this.version++;
    this.manifest = this.reread('run.json', this.manifest) as RunReader['manifest'];
    this.config = this.reread('config.json', this.config);
    this.summary = this.reread('summary.json', this.summary);
    this.events.read({
      line: (line) => this.state.add(line.bytes.toString('utf8')),
      reset: () => {
        this.state = new RunState();
      },
    });
    return true;
  }

  /** When the run's streams last changed (ms since the epoch): how "running" is told from "stopped". */
  lastActivityMs(): number {
    return Math.max(
      mtimeOf(join(this.dir, 'events.jsonl')),
      mtimeOf(join(this.dir, 'rollouts.jsonl')),
      mtimeOf(join(this.dir, 'segments')),
    );
  }

  /** The run's rollouts, for the trajectory views; built on first use and followed from then on. */
  rollouts(): RolloutTable {
    this.table ??= new RolloutTable(this.dir, this.realRoot);
    this.tableUsedAt = Date.now();
    this.table.refresh();
    return this.table;
  }

  /**
   * Drops the rollout table when no page asked for it for `idleMs`: it holds a row and a location per
   * rollout, which a long run watched only through its charts should not keep paying for.
   */
  releaseIdle(idleMs: number, now = Date.now()): void {
    if (this.table && now - this.tableUsedAt > idleMs) this.table = undefined;
  }

  /** The run's skill versions; read on first use, read again when the run has changed. */
  skills(): SkillBank {
    this.bank ??= new SkillBank(this.dir, this.realRoot);
    this.bank.refresh(this.signature, this.state.end !== undefined);
    return this.bank;
  }

  private reread(name: string, current: Record<string, unknown> | undefined) {
    const path = join(this.dir, name);
    const time = mtimeOf(path);
    if (time === this.fileTimes.get(name) && current) return current;
    this.fileTimes.set(name, time);
    return readJson(path, this.realRoot) ?? current;
  }
}
