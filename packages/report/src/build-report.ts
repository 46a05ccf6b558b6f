import { InvalidArgumentError } from '@skillrl/core';
import { renderPage } from './html/render-page.js';
import { readRunDir } from './read/read-run-dir.js';
import type { BuildReportOptions, ReportResult } from './report-types.js';
import { buildEvolveView, type EvolveView } from './view/evolve-view.js';
import { buildInternalizeView, type InternalizeView } from './view/internalize-view.js';
import { summarizeRun } from './view/summarize-run.js';

function checkCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError(`options.${name}`, `expected an integer >= 0, got ${String(value)}`);
  }
  return value;
}

/**
 * Reads a run directory (finished, still running, or crashed) and returns the self-contained HTML report
 * and its summary. It never writes to the directory; a missing or damaged file becomes a note on the page.
 */
export function buildReport(runDir: string, options: BuildReportOptions = {}): ReportResult {
  const maxSkillTasks = checkCount('maxSkillTasks', options.maxSkillTasks, 20);
  const maxMetricCharts = checkCount('maxMetricCharts', options.maxMetricCharts, 12);
  const data = readRunDir(runDir);
  const { events } = data;
  const hasGenerations = events.some((e) => e.type === 'generation');
  const hasTraining = events.some((e) => e.type === 'validation' || e.type === 'step');
  const startMethod = events.find((e) => e.type === 'run:start');
  const label = startMethod?.type === 'run:start' ? startMethod.method : String(data.config?.method ?? '');

  let evolve: EvolveView | undefined;
  let internalize: InternalizeView | undefined;
  if (hasGenerations || label.startsWith('evolve')) {
    evolve = buildEvolveView(events, data.skills, data.notes, { maxMetricCharts });
  }
  if (hasTraining || label.startsWith('internalize')) {
    internalize = buildInternalizeView(events, { maxMetricCharts });
  }
  const generations = evolve && evolve.generations.length > 0 ? Math.max(...evolve.generations) : undefined;
  const charts = [...(evolve?.charts ?? []), ...(internalize?.charts ?? [])];
  const summary = { ...summarizeRun(data, internalize, generations), charts: charts.map((c) => c.id) };
  const html = renderPage({
    title: options.title ?? `skillrl report — ${summary.runId}`,
    summary,
    ...(evolve ? { evolve } : {}),
    ...(internalize ? { internalize } : {}),
    charts,
    maxSkillTasks,
    bank: data.bank,
  });
  return { html, summary };
}
