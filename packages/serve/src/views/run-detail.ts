import type { RunReader } from '../store/run-reader.js';
import type { ErrorGroup } from '../store/run-state.js';
import type { ChartSpec } from './chart-spec.js';
import { familiesOf, type Retirement, retirementsOf, runCharts } from './run-charts.js';
import { type RunSummary, summarizeRun } from './run-summary.js';

/** Health: what the error budget watches, with the messages behind the counts. */
export interface RunHealth {
  rollouts: number;
  errored: number;
  rerun: number;
  /** Errors grouped by message, most frequent first. */
  errors: ErrorGroup[];
  /** Units whose update carried no learning signal, with the reason the run gave. */
  voidUnits: { unit: string; reason: string }[];
  /** Rollout workers coming and going (a config's `workers`). */
  workers: { time: string; status: string; message: string }[];
  /** Event lines that were not JSON or not events (a damaged stream). */
  skippedLines: number;
}

/** Everything the page of one run shows. */
export interface RunDetail {
  summary: RunSummary;
  health: RunHealth;
  charts: ChartSpec[];
  retirements: Retirement[];
  families: string[];
  /** The run's final figures (run:end, or summary.json once written). */
  metrics?: Record<string, number>;
}

export function runDetail(reader: RunReader, staleAfterMs: number): RunDetail {
  const summary = summarizeRun(reader, staleAfterMs);
  const { state } = reader;
  const metricsSource =
    (reader.summary?.metrics as Record<string, unknown> | undefined) ?? state.end?.metrics ?? undefined;
  const metrics = metricsSource
    ? Object.fromEntries(
        Object.entries(metricsSource).filter((e): e is [string, number] => typeof e[1] === 'number'),
      )
    : undefined;
  return {
    summary,
    health: {
      rollouts: state.rollouts,
      errored: state.errored,
      rerun: state.rerun,
      errors: [...state.errors.values()].sort((a, b) => b.count - a.count),
      voidUnits: state.voidUnits,
      workers: state.workers.map((w) => ({ time: w.time, status: w.status, message: w.message })),
      skippedLines: state.skipped,
    },
    charts: runCharts(state, summary.method),
    retirements: retirementsOf(state),
    families: familiesOf(state),
    ...(metrics ? { metrics } : {}),
  };
}
