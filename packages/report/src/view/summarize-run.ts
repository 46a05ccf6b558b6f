import { basename } from 'node:path';
import { type RunEndEvent, type RunStartEvent, rolloutErrored } from '@skillrl/core';
import type { RunData } from '../read/read-run-dir.js';
import type { FamilySummary, ReportSummary, RunMethod, RunStatus, SuccessCount } from '../report-types.js';
import type { InternalizeView } from './internalize-view.js';

interface Outcome {
  family: string;
  condition: 0 | 1;
  passed: boolean;
  error?: string;
}

function methodOf(label: string, data: RunData): RunMethod {
  if (label.startsWith('evolve')) return 'evolve';
  if (label.startsWith('internalize')) return 'internalize';
  if (data.events.some((e) => e.type === 'generation')) return 'evolve';
  if (data.events.some((e) => e.type === 'validation' || e.type === 'step')) return 'internalize';
  return 'unknown';
}

const rate = (c: SuccessCount): SuccessCount => ({
  ...c,
  rate: c.episodes > 0 ? c.passed / c.episodes : null,
});

/** The run-level numbers: method, seed, status, duration, rollouts, success per family, errors. */
export function summarizeRun(
  data: RunData,
  internalize: InternalizeView | undefined,
  generations: number | undefined,
): Omit<ReportSummary, 'charts'> {
  const notes = data.notes;
  const start = data.events.find((e): e is RunStartEvent => e.type === 'run:start');
  const end = data.events.filter((e): e is RunEndEvent => e.type === 'run:end').pop();
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const methodLabel =
    text(start?.method) ?? text(data.manifest?.method) ?? text(data.config?.method) ?? 'unknown';
  const seedValue = start?.seed ?? data.config?.seed;
  const seed = typeof seedValue === 'number' && Number.isFinite(seedValue) ? seedValue : undefined;
  const runId = text(start?.runId) ?? text(data.manifest?.runId) ?? basename(data.dir);

  let status: RunStatus;
  if (end) status = end.status;
  else if (start) status = 'in progress';
  else status = 'not started';
  const lastTime = [...data.events].reverse().find((e) => text(e.time))?.time;
  if (!end && start) {
    notes.push(
      `No run:end event: the run is still going, or it stopped without finishing (a crash or a kill). What follows is what was recorded${lastTime ? ` up to ${lastTime}` : ''}.`,
    );
  }
  if (!start && data.events.length > 0)
    notes.push('No run:start event: the method and seed come from config.json.');
  const startedAt = text(start?.time);
  const endedAt = text(end?.time) ?? lastTime;
  const startMs = startedAt ? Date.parse(startedAt) : Number.NaN;
  const endMs = endedAt ? Date.parse(endedAt) : Number.NaN;
  const durationMs =
    Number.isFinite(startMs) && Number.isFinite(endMs) ? Math.max(0, endMs - startMs) : undefined;

  // Rollout events are the record the loops keep for every trajectory. A rollout whose model call failed is
  // run again on resume and gets a second event under the same id; the latest is the rollout as it finally
  // ended. readRunDir keeps only that one (core's readLatestRecords); a hand-built or hand-merged record may
  // still repeat an id, so here too each trajectory id counts once, as its last event.
  const byId = new Map<string, Outcome>();
  const unnamed: Outcome[] = [];
  const keep = (id: string | undefined, outcome: Outcome) => {
    if (id === undefined) {
      unnamed.push(outcome);
      return;
    }
    byId.delete(id);
    byId.set(id, outcome);
  };
  for (const e of data.events) {
    if (e.type !== 'rollout') continue;
    keep(text(e.trajectoryId), {
      family: e.family,
      condition: e.condition,
      passed: e.passed,
      ...(e.error !== undefined && e.error !== null ? { error: text(e.error) ?? 'error' } : {}),
    });
  }
  if (byId.size === 0 && unnamed.length === 0) {
    for (const t of data.rollouts) {
      keep(text(t.id), {
        family: t.family,
        condition: t.condition,
        passed: t.verdict.passed === true,
        ...(rolloutErrored(t) ? { error: text(t.error?.code) ?? 'error' } : {}),
      });
    }
  }
  const outcomes = [...byId.values(), ...unnamed];

  // An errored rollout measured nothing (its reward is a placeholder): it is counted on its side, never in
  // the side's episodes or success rate.
  const empty = (): SuccessCount => ({ episodes: 0, passed: 0, rate: null, errored: 0 });
  const counts = new Map<string, { with: SuccessCount; without: SuccessCount }>();
  const errorCodes: Record<string, number> = {};
  let rolloutErrors = 0;
  for (const o of outcomes) {
    let c = counts.get(o.family);
    if (!c) {
      c = { with: empty(), without: empty() };
      counts.set(o.family, c);
    }
    const side = o.condition === 1 ? c.with : c.without;
    if (o.error) {
      side.errored++;
      rolloutErrors++;
      errorCodes[o.error] = (errorCodes[o.error] ?? 0) + 1;
      continue;
    }
    side.episodes++;
    if (o.passed) side.passed++;
  }
  const familyNames = [...new Set([...counts.keys(), ...(internalize?.families ?? [])])].sort();
  const families: FamilySummary[] = familyNames.map((family) => {
    const c = counts.get(family);
    const summary: FamilySummary = {
      family,
      withSkill: rate(c?.with ?? empty()),
      withoutSkill: rate(c?.without ?? empty()),
    };
    const last = [...(internalize?.validations ?? [])].reverse().find((r) => r.families[family]);
    const v = last?.families[family];
    if (last && v)
      summary.lastValidation = { step: last.step, withSkill: v.withSkill, withoutSkill: v.withoutSkill };
    const finalRetired = internalize?.validations[internalize.validations.length - 1]?.retired ?? [];
    if (finalRetired.includes(family)) {
      const when = internalize?.retirements.filter((r) => r.family === family && r.kind === 'retired').pop();
      if (when) summary.retiredAt = when.step;
    }
    return summary;
  });
  if (internalize?.frozenPolicy || end?.metrics?.policy_frozen === 1) {
    notes.push(
      'No policy update happened in this run: its trainer reports that it does not update the policy in process (e.g. trainer "external"). The steps ran rollouts and wrote their advantages for `skillrl export`; every validation, λ/ρ and skill retirement below was decided against the frozen starting policy, so a retirement here says nothing about internalization.',
    );
  }
  if (end?.status === 'failed' && !text(end.error))
    notes.push('The run failed without recording an error message.');

  return {
    runId,
    dir: data.dir,
    method: methodOf(methodLabel, data),
    methodLabel,
    ...(seed !== undefined ? { seed } : {}),
    status,
    ...(startedAt ? { startedAt } : {}),
    ...(endedAt ? { endedAt } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    rollouts: outcomes.length,
    rolloutErrors,
    errorCodes,
    ...(text(end?.error) ? { runError: end?.error as string } : {}),
    families,
    ...(generations !== undefined ? { generations } : {}),
    ...(internalize && internalize.steps > 0 ? { steps: internalize.steps } : {}),
    notes,
  };
}
