import { basename } from 'node:path';
import type { RunEndEvent, RunStartEvent } from '@skillrl/core';
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

  // Rollout events are the record the loops keep for every trajectory; a resumed run may repeat none, but a
  // hand-merged file might, so they are counted once per trajectory id.
  const outcomes: Outcome[] = [];
  const seen = new Set<string>();
  for (const e of data.events) {
    if (e.type !== 'rollout') continue;
    if (text(e.trajectoryId)) {
      if (seen.has(e.trajectoryId)) continue;
      seen.add(e.trajectoryId);
    }
    outcomes.push({
      family: e.family,
      condition: e.condition,
      passed: e.passed,
      ...(text(e.error) ? { error: e.error as string } : {}),
    });
  }
  if (outcomes.length === 0) {
    for (const t of data.rollouts) {
      outcomes.push({
        family: t.family,
        condition: t.condition,
        passed: t.verdict.passed === true,
        ...(t.error && text(t.error.code) ? { error: t.error.code } : {}),
      });
    }
  }

  const counts = new Map<string, { with: SuccessCount; without: SuccessCount }>();
  const errorCodes: Record<string, number> = {};
  let rolloutErrors = 0;
  for (const o of outcomes) {
    let c = counts.get(o.family);
    if (!c) {
      c = { with: { episodes: 0, passed: 0, rate: null }, without: { episodes: 0, passed: 0, rate: null } };
      counts.set(o.family, c);
    }
    const side = o.condition === 1 ? c.with : c.without;
    side.episodes++;
    if (o.passed) side.passed++;
    if (o.error) {
      rolloutErrors++;
      errorCodes[o.error] = (errorCodes[o.error] ?? 0) + 1;
    }
  }
  const familyNames = [...new Set([...counts.keys(), ...(internalize?.families ?? [])])].sort();
  const families: FamilySummary[] = familyNames.map((family) => {
    const c = counts.get(family);
    const summary: FamilySummary = {
      family,
      withSkill: rate(c?.with ?? { episodes: 0, passed: 0, rate: null }),
      withoutSkill: rate(c?.without ?? { episodes: 0, passed: 0, rate: null }),
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
