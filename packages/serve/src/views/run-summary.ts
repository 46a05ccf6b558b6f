import { basename } from 'node:path';
import type { RunReader } from '../store/run-reader.js';

export type RunStateName = 'running' | 'completed' | 'failed' | 'cancelled' | 'stopped';

/** One row of the runs list: what a run is, how it stands and how far it got. */
export interface RunSummary {
  id: string;
  name: string;
  method: string;
  /** `skillc`, `grpo`, `skill0`… (internalize) or `grpo`, `prompt`… (evolve), from the run's start. */
  variant?: string;
  status: { state: RunStateName; label: string; error?: string };
  progress: { unit: 'step' | 'generation'; done: number; total?: number };
  /** The config in a few [name, value] pairs. */
  config: [string, string][];
  rollouts: number;
  errored: number;
  rerun: number;
  startedAt?: string;
  updatedAt?: string;
  /** Changes whenever the run's files did. */
  version: number;
}

const text = (v: unknown): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.name === 'string') return o.name;
    if (typeof o.package === 'string') return o.package;
    if (o.program !== undefined) return 'program';
    const json = JSON.stringify(v);
    return json.length > 60 ? `${json.slice(0, 57)}…` : json;
  }
  return undefined;
};

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The config fields that tell two runs apart, by method. */
function configPairs(config: Record<string, unknown>, method: string): [string, string][] {
  const pairs: [string, string][] = [];
  const add = (name: string, value: unknown) => {
    const t = text(value);
    if (t !== undefined) pairs.push([name, t]);
  };
  add('adapter', config.adapter);
  add('agent', config.agent);
  add('seed', config.seed);
  const tasks = obj(config.tasks);
  if (tasks.split !== undefined || tasks.limit !== undefined) {
    add('tasks', `${tasks.split ?? ''}${tasks.limit !== undefined ? ` × ${tasks.limit}` : ''}`.trim());
  }
  if (method === 'internalize') {
    const i = obj(config.internalize);
    add('variant', i.variant);
    if (i.ablation !== undefined && i.ablation !== 'none') add('ablation', i.ablation);
    add('steps', i.steps);
    add('tasks/step', i.tasksPerStep);
    add('group', i.groupSize);
    add('trainer', i.trainer);
  } else if (method === 'evolve') {
    const e = obj(config.evolve);
    add('mode', e.mode);
    add('generations', e.generations);
    add('candidates', e.candidates);
    add('episodes', e.episodes);
    add('generator', e.generator);
  }
  return pairs;
}

/**
 * How a run stands. `run:end` says how it ended; without one, a run whose streams changed within
 * `staleAfterMs` is running, and one whose streams stopped changing was killed or crashed (stopped: resume
 * continues it).
 */
export function runStatus(reader: RunReader, staleAfterMs: number, now = Date.now()): RunSummary['status'] {
  const end = reader.state.end;
  if (end) {
    if (end.status === 'completed') return { state: 'completed', label: 'completed' };
    if (end.status === 'cancelled') return { state: 'cancelled', label: 'stopped: cancelled (interrupted)' };
    return { state: 'failed', label: 'stopped: failed', ...(end.error ? { error: String(end.error) } : {}) };
  }
  const idle = now - reader.lastActivityMs();
  if (reader.state.starts > 0 && idle <= staleAfterMs) return { state: 'running', label: 'running' };
  return {
    state: 'stopped',
    label:
      reader.state.starts === 0
        ? 'stopped: nothing recorded yet'
        : `stopped: no run:end, quiet for ${Math.round(idle / 60000)} min (killed or crashed; skillrl resume continues it)`,
  };
}

export function summarizeRun(reader: RunReader, staleAfterMs: number): RunSummary {
  const { state } = reader;
  const config = reader.config ?? {};
  const method =
    (typeof reader.manifest?.method === 'string' ? reader.manifest.method : undefined) ??
    state.startMethod?.split(':')[0] ??
    (typeof config.method === 'string' ? config.method : '?');
  const variant = state.startMethod?.includes(':') ? state.startMethod.split(':')[1] : undefined;
  const section = obj(config[method]);
  const progress: RunSummary['progress'] =
    method === 'evolve'
      ? {
          unit: 'generation',
          done: Math.max(0, state.maxGeneration),
          ...(typeof section.generations === 'number' ? { total: section.generations } : {}),
        }
      : {
          unit: 'step',
          done: state.maxStep,
          ...(typeof section.steps === 'number' ? { total: section.steps } : {}),
        };
  return {
    id: reader.id,
    name: typeof reader.manifest?.runId === 'string' ? reader.manifest.runId : basename(reader.dir),
    method,
    ...(variant ? { variant } : {}),
    status: runStatus(reader, staleAfterMs),
    progress,
    config: configPairs(config, method),
    rollouts: state.rollouts,
    errored: state.errored,
    rerun: state.rerun,
    ...(state.startedAt ? { startedAt: state.startedAt } : {}),
    ...(state.lastEventAt ? { updatedAt: state.lastEventAt } : {}),
    version: reader.version,
  };
}
