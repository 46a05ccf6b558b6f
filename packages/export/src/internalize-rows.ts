import { readRunStreamLines, type Trajectory } from '@skillrl/core';
import { collectingNotes, type ExportCounts, lostUpdateOf } from './export-counts.js';
import type { ExportFormat } from './export-format.js';
import type { ExportRow } from './export-row.js';
import { leadingId } from './leading-id.js';
import { readAdvantages } from './read-advantages.js';
import { type RowSource, trlRows } from './trl-rows.js';
import { verlRows } from './verl-rows.js';

/** The rows one trajectory gives in a layout (what an update whose advantages were lost cost). */
function rowsOf(t: Trajectory, format: ExportFormat, source: RowSource): number {
  if (format === 'jsonl') return t.steps.length;
  if (format === 'trl') return trlRows(t, source).rows.length;
  const result = verlRows(t, source);
  return result.kind === 'skipped' ? 0 : result.rows.length;
}

/**
 * An internalize (SKILLC) run's rows: those of the training rollouts listed in `advantages.jsonl` (validation
 * rollouts are not trained on), each with its trajectory's advantage, in the asked-for layout.
 */
export function* internalizeRows(dir: string, format: ExportFormat, counts: ExportCounts): Generator<object> {
  const trained = new Map<string, RowSource>();
  for (const record of readAdvantages(dir, counts)) {
    for (const row of record.rows) {
      if (row.trajectoryId) trained.set(row.trajectoryId, { unit: record.unit, advantage: row.advantage });
    }
  }
  const done = new Set<string>();
  const lostSeen = new Set<string>();
  // Trajectory ids start with their unit (`s4/…`): a rollout of an update whose advantages are unreadable.
  const lostUnitOf = (id: string) => {
    if (counts.lostUpdates.length === 0 || trained.has(id) || lostSeen.has(id)) return undefined;
    const slash = id.indexOf('/');
    return slash === -1 ? undefined : lostUpdateOf(counts, id.slice(0, slash));
  };
  // One trajectory in memory at a time: the rollouts hold every episode of the run (hundreds of MB), in
  // rollouts.jsonl or, in a long run, its closed segments too (core's reader reads both layouts).
  let record = 0;
  for (const line of readRunStreamLines(dir, 'rollouts', collectingNotes(counts))) {
    record++;
    const id = leadingId(line);
    if (id !== undefined && (!trained.has(id) || done.has(id)) && !lostUnitOf(id)) continue;
    let t: Trajectory;
    try {
      t = JSON.parse(line) as Trajectory;
    } catch {
      // Said with the rest; a trained trajectory it held is counted as missing below.
      counts.read.push({ kind: 'damaged', file: 'rollouts', lineNo: record });
      continue;
    }
    const lost = lostUnitOf(t.id);
    if (lost) {
      lostSeen.add(t.id);
      lost.sources++;
      lost.rows += rowsOf(t, format, { unit: lost.unit ?? '', advantage: 0 });
      continue;
    }
    const source = trained.get(t.id);
    if (!source || done.has(t.id)) continue;
    done.add(t.id);
    counts.turns += t.steps.length;
    if (format === 'jsonl') {
      counts.sources++;
      for (const step of t.steps) {
        yield {
          prompt: step.observation,
          completion: step.action,
          logProbs: step.logProbs ?? (step.logProb !== undefined ? [step.logProb] : null),
          tokenIds: step.tokenIds ?? null,
          advantage: source.advantage,
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
