import { readLatestRecords, rolloutErrored, type Trajectory } from '@skillrl/core';
import { collectingNotes, type ExportCounts, lostUpdateOf } from './export-counts.js';
import type { ExportFormat } from './export-format.js';
import type { ExportRow } from './export-row.js';
import { readAdvantages } from './read-advantages.js';
import { type RowSource, stepAdvantageOf } from './row-source.js';
import { trlRows } from './trl-rows.js';
import { verlRows } from './verl-rows.js';

/** The rows one trajectory gives in a layout (what an update whose advantages were lost cost). */
function rowsOf(t: Trajectory, format: ExportFormat, source: RowSource): number {
  if (format === 'jsonl') return t.steps.length;
  if (format === 'trl') return trlRows(t, source).rows.length;
  const result = verlRows(t, source);
  return result.kind === 'skipped' ? 0 : result.rows.length;
}

/** A trained trajectory's row source, and whether it has an advantage (null: the update gave it none). */
interface Trained {
  unit: string;
  advantage: number | null;
  stepAdvantages?: number[];
}

/**
 * An internalize (SKILLC) run's rows: those of the training rollouts listed in `advantages.jsonl` (validation
 * rollouts are not trained on), each with its trajectory's advantage (or, per step, its step advantages), in
 * the asked-for layout. Each rollout is read as its latest record (core's `readLatestRecords`): a rollout run
 * again on resume is exported as it finally ended, never as the errored record before it; a trajectory
 * whose latest record ended in an error is never exported (counted).
 */
export function* internalizeRows(dir: string, format: ExportFormat, counts: ExportCounts): Generator<object> {
  const trained = new Map<string, Trained>();
  for (const record of readAdvantages(dir, counts, 'trajectory')) {
    for (const row of record.rows) {
      trained.set(row.trajectoryId, {
        unit: record.unit,
        advantage: row.advantage,
        ...(row.stepAdvantages ? { stepAdvantages: row.stepAdvantages } : {}),
      });
    }
  }
  const done = new Set<string>();
  // Trajectory ids start with their unit (`s4/…`): a rollout of an update whose advantages are unreadable.
  const lostUnitOf = (id: string) => {
    if (counts.lostUpdates.length === 0 || trained.has(id)) return undefined;
    const slash = id.indexOf('/');
    return slash === -1 ? undefined : lostUpdateOf(counts, id.slice(0, slash));
  };
  // One trajectory in memory at a time: the rollouts hold every episode of the run (hundreds of MB), in
  // rollouts.jsonl or, in a long run, its closed segments too (core's reader reads both layouts).
  // Rollouts no update trained on (validations, the test) are skipped unparsed.
  const wanted = (id: string) => trained.has(id) || lostUnitOf(id) !== undefined;
  for (const t of readLatestRecords<Trajectory>(dir, 'rollouts', {
    ...collectingNotes(counts),
    want: wanted,
  })) {
    if (typeof t?.id !== 'string') continue;
    const lost = lostUnitOf(t.id);
    if (lost) {
      // An errored rollout would not have been written either: it costs no row.
      if (rolloutErrored(t)) continue;
      lost.sources++;
      lost.rows += rowsOf(t, format, { unit: lost.unit ?? '', advantage: 0 });
      continue;
    }
    const found = trained.get(t.id);
    if (!found || done.has(t.id)) continue;
    done.add(t.id);
    if (rolloutErrored(t)) {
      counts.errored++;
      continue;
    }
    if (found.advantage === null) {
      counts.noAdvantage++;
      continue;
    }
    let source: RowSource = { unit: found.unit, advantage: found.advantage };
    if (found.stepAdvantages) {
      if (found.stepAdvantages.length === t.steps.length) {
        source = { ...source, stepAdvantages: found.stepAdvantages };
      } else counts.stepMismatch++;
    }
    counts.turns += t.steps.length;
    if (format === 'jsonl') {
      counts.sources++;
      for (const [k, step] of t.steps.entries()) {
        yield {
          prompt: step.observation,
          completion: step.action,
          logProbs: step.logProbs ?? (step.logProb !== undefined ? [step.logProb] : null),
          tokenIds: step.tokenIds ?? null,
          advantage: stepAdvantageOf(source, k),
          meta: {
            unit: source.unit,
            trajectoryId: t.id,
            taskId: t.taskId,
            step: step.index,
            condition: t.condition,
            ...(t.skill ? { skill: t.skill.name } : {}),
          },
        } satisfies ExportRow;
      }
    } else if (format === 'trl') {
      const { rows, missing } = trlRows(t, source);
      counts.turnsWithoutRecord += missing;
      if (rows.length > 0) counts.sources++;
      else counts.trajectoriesWithoutRecord++;
      yield* rows;
    } else {
      const result = verlRows(t, source);
      if (result.kind === 'skipped') {
        if (result.reason === 'no-record') counts.trajectoriesWithoutRecord++;
        else counts.trajectoriesWithoutIds++;
        continue;
      }
      counts.sources++;
      if (result.perTurn) counts.perTurn++;
      yield* result.rows;
    }
  }
  for (const id of trained.keys()) if (!done.has(id)) counts.sourcesMissing++;
}
