import { type PairedDifference, pairedByTask, type TestOutcomes } from '@skillrl/core';
import type { RunReader } from '../store/run-reader.js';
import type { HeldOutCounts, RunState } from '../store/run-state.js';
import { type ChartSpec, colorAt, meanOrNull } from './chart-spec.js';
import { type RunSummary, summarizeRun } from './run-summary.js';

/** Two runs' held-out results against each other, task by task. */
export interface PairedComparison {
  a: string;
  b: string;
  /** The held-out unit both ran: `test` (SKILLC), `hfinal` or `final` (Skill-R1). */
  unit: string;
  /** `without`: success without skills (what SKILLC internalizes); `with`: with them. */
  side: 'without' | 'with';
  /** Undefined with fewer than two tasks in common. */
  result?: PairedDifference;
  tasks: number;
}

export interface Comparison {
  runs: RunSummary[];
  charts: ChartSpec[];
  paired: PairedComparison[];
}

/** Outcomes per task on one side, in the shape core's `pairedByTask` reads (it pairs the `without` side). */
function outcomes(counts: HeldOutCounts, side: 'with' | 'without'): TestOutcomes {
  const out: TestOutcomes = {};
  for (const [task, [wp, wn, op, on]] of counts) {
    const rate = side === 'with' ? (wn > 0 ? wp / wn : null) : on > 0 ? op / on : null;
    out[task] = { with: null, without: rate };
  }
  return out;
}

const HELD_OUT_ORDER = ['test', 'hfinal', 'final'];

function overlay(
  id: string,
  title: string,
  xLabel: string,
  yLabel: string,
  readers: RunReader[],
  points: (state: RunState) => [number, number | null][],
  unitRange = false,
): ChartSpec {
  return {
    id,
    title,
    xLabel,
    yLabel,
    ...(unitRange ? { yMin: 0, yMax: 1 } : {}),
    series: readers
      .map((r, i) => ({ label: r.id, color: colorAt(i), points: points(r.state) }))
      .filter((s) => s.points.length > 0),
  };
}

/**
 * Two or more runs side by side: their curves overlaid (one colour per run), and the held-out difference of
 * each run against the first, paired by task with a Student's t interval (core's `pairedByTask`), on both
 * sides where both were measured.
 */
export function compareRuns(readers: RunReader[], staleAfterMs: number): Comparison {
  const byStep = (s: RunState) => [...s.validations.values()].sort((a, b) => a.step - b.step);
  const charts: ChartSpec[] = [
    overlay(
      'cmp-train',
      'Training success per step',
      'training step',
      'success rate',
      readers,
      (s) => [...s.steps.entries()].sort((a, b) => a[0] - b[0]).map(([step, m]) => [step, m.success ?? null]),
      true,
    ),
    overlay(
      'cmp-val-without',
      'Validation success without skills (mean over types)',
      'training step',
      'success rate',
      readers,
      (s) => byStep(s).map((v) => [v.step, meanOrNull(Object.values(v.families).map((f) => f.withoutSkill))]),
      true,
    ),
    overlay(
      'cmp-val-with',
      'Validation success with skills (mean over types)',
      'training step',
      'success rate',
      readers,
      (s) => byStep(s).map((v) => [v.step, meanOrNull(Object.values(v.families).map((f) => f.withSkill))]),
      true,
    ),
    overlay(
      'cmp-reward',
      'Skill-R1 reward per generation (mean over tasks)',
      'generation',
      'reward',
      readers,
      (s) => {
        const gens = [...new Set([...s.generations.values()].flatMap((m) => [...m.keys()]))].sort(
          (a, b) => a - b,
        );
        return gens.map((g) => [
          g,
          meanOrNull([...s.generations.values()].map((m) => m.get(g)?.meanReward ?? Number.NaN)),
        ]);
      },
    ),
  ].filter((c) => c.series.length > 0);
  const paired: PairedComparison[] = [];
  const [first, ...others] = readers;
  if (first) {
    for (const other of others) {
      const unit = HELD_OUT_ORDER.find((u) => first.state.heldOut.has(u) && other.state.heldOut.has(u));
      if (!unit) continue;
      const a = first.state.heldOut.get(unit) as HeldOutCounts;
      const b = other.state.heldOut.get(unit) as HeldOutCounts;
      for (const side of ['without', 'with'] as const) {
        const oa = outcomes(a, side);
        const ob = outcomes(b, side);
        const tasks = Object.keys(oa).filter(
          (t) => oa[t]?.without !== null && ob[t] && ob[t].without !== null,
        ).length;
        if (tasks === 0) continue;
        const result = pairedByTask(oa, ob);
        paired.push({ a: first.id, b: other.id, unit, side, tasks, ...(result ? { result } : {}) });
      }
    }
  }
  return { runs: readers.map((r) => summarizeRun(r, staleAfterMs)), charts, paired };
}
