import type { RunState, ValidationPoint } from '../store/run-state.js';
import { type ChartMarker, type ChartSeries, type ChartSpec, colorAt, meanOrNull } from './chart-spec.js';

/** A skill type leaving (or, under SKILL0's schedule, coming back into) the active set. */
export interface Retirement {
  family: string;
  step: number;
  kind: 'retired' | 'restored';
  /** The validation gap (with − without) at that step, when measured. */
  gap?: number;
}

const sortedValidations = (state: RunState): ValidationPoint[] =>
  [...state.validations.values()].sort((a, b) => a.step - b.step);

/** The families the charts draw, in a fixed order so that each keeps its colour as the run goes on. */
export function familiesOf(state: RunState): string[] {
  const set = new Set(state.families);
  for (const v of state.validations.values()) {
    for (const f of Object.keys(v.families)) set.add(f);
    for (const f of Object.keys(v.lambda)) set.add(f);
  }
  return [...set].sort();
}

/** Retirements and restorations, from the curriculum state each validation carries. */
export function retirementsOf(state: RunState): Retirement[] {
  const out: Retirement[] = [];
  let before = new Set<string>();
  for (const v of sortedValidations(state)) {
    const now = new Set(v.retired);
    for (const family of new Set([...now, ...before])) {
      const f = v.families[family];
      const gap = f ? { gap: f.withSkill - f.withoutSkill } : {};
      if (now.has(family) && !before.has(family)) out.push({ family, step: v.step, kind: 'retired', ...gap });
      if (!now.has(family) && before.has(family))
        out.push({ family, step: v.step, kind: 'restored', ...gap });
    }
    before = now;
  }
  return out;
}

/** SKILLC (internalize): training success, validation with and without skills, the gap per type, λ, ρ. */
function internalizeCharts(state: RunState): ChartSpec[] {
  const families = familiesOf(state);
  const colorOf = (family: string) => colorAt(families.indexOf(family));
  const validations = sortedValidations(state);
  const retirements = retirementsOf(state);
  const markers: ChartMarker[] = retirements.map((r) => ({
    x: r.step,
    label: `${r.family} ${r.kind}`,
    color: r.kind === 'retired' ? colorOf(r.family) : '#6b7280',
  }));
  const steps = [...state.steps.entries()].sort((a, b) => a[0] - b[0]);
  const stepSeries = (key: string, label: string, color: string, dashed = false): ChartSeries => ({
    label,
    color,
    ...(dashed ? { dashed } : {}),
    points: steps.map(([step, m]) => [step, m[key] ?? null]),
  });
  const perFamily = (pick: (v: ValidationPoint, family: string) => number | undefined): ChartSeries[] =>
    families
      .map((family) => ({
        label: family,
        color: colorOf(family),
        points: validations
          .map((v): [number, number | undefined] => [v.step, pick(v, family)])
          .filter((p): p is [number, number] => p[1] !== undefined),
      }))
      .filter((s) => s.points.length > 0);
  const frozen = validations.some((v) => v.frozenPolicy) ? ' — frozen policy, no update' : '';
  const charts: ChartSpec[] = [
    {
      id: 'train-success',
      title: 'Training success per step',
      xLabel: 'training step',
      yLabel: 'success rate',
      yMin: 0,
      yMax: 1,
      series: [
        stepSeries('success_with', 'with skill (z = 1)', colorAt(0)),
        stepSeries('success_without', 'without skill (z = 0)', colorAt(1), true),
      ],
    },
    {
      id: 'validation-success',
      title: `Validation success with and without skills (mean over types)${frozen}`,
      xLabel: 'training step',
      yLabel: 'success rate',
      yMin: 0,
      yMax: 1,
      markers,
      series: [
        {
          label: 'with skill',
          color: colorAt(0),
          points: validations.map((v) => [
            v.step,
            meanOrNull(Object.values(v.families).map((f) => f.withSkill)),
          ]),
        },
        {
          label: 'without skill',
          color: colorAt(1),
          dashed: true,
          points: validations.map((v) => [
            v.step,
            meanOrNull(Object.values(v.families).map((f) => f.withoutSkill)),
          ]),
        },
      ],
    },
    {
      id: 'gap',
      title: `Skill gap per type (success with − without)${frozen}`,
      xLabel: 'training step',
      yLabel: 'gap',
      markers,
      series: perFamily((v, f) => {
        const x = v.families[f];
        // A type whose with-skill side ran no episode has no gap to show.
        return x && x.withSkillEpisodes !== 0 ? x.withSkill - x.withoutSkill : undefined;
      }),
    },
    {
      id: 'lambda',
      title: 'Attribution strength λ per type',
      xLabel: 'training step',
      yLabel: 'λ',
      markers,
      series: perFamily((v, f) => v.lambda[f]),
    },
    {
      id: 'rho',
      title: 'Share ρ of rollouts with the skill, per type',
      xLabel: 'training step',
      yLabel: 'ρ',
      yMin: 0,
      yMax: 1,
      markers,
      series: perFamily((v, f) => v.rho[f]),
    },
  ];
  return charts;
}

/** Tasks drawn one line each on the per-task chart; more would be unreadable (the mean chart has them all). */
const MAX_TASK_LINES = 10;

/** Skill-R1 (evolve): reward per generation, over tasks and per task. */
function evolveCharts(state: RunState): ChartSpec[] {
  const generations = [...new Set([...state.generations.values()].flatMap((m) => [...m.keys()]))].sort(
    (a, b) => a - b,
  );
  const over = (pick: 'meanReward' | 'bestReward'): [number, number | null][] =>
    generations.map((g) => [
      g,
      meanOrNull([...state.generations.values()].map((m) => m.get(g)?.[pick] ?? Number.NaN)),
    ]);
  const tasks = [...state.generations.keys()].sort().slice(0, MAX_TASK_LINES);
  return [
    {
      id: 'reward',
      title: 'Reward per generation (mean over tasks)',
      xLabel: 'generation',
      yLabel: 'reward',
      series: [
        { label: 'mean reward', color: colorAt(0), points: over('meanReward') },
        { label: 'best candidate', color: colorAt(1), dashed: true, points: over('bestReward') },
      ],
    },
    {
      id: 'reward-by-task',
      title:
        state.generations.size > MAX_TASK_LINES
          ? `Mean reward per generation, first ${MAX_TASK_LINES} of ${state.generations.size} tasks`
          : 'Mean reward per generation, per task',
      xLabel: 'generation',
      yLabel: 'reward',
      series: tasks.map((task, i) => ({
        label: task,
        color: colorAt(i),
        points: [...(state.generations.get(task)?.values() ?? [])]
          .sort((a, b) => a.generation - b.generation)
          .map((p) => [p.generation, Number.isFinite(p.meanReward) ? p.meanReward : null]),
      })),
    },
  ];
}

/** The charts of one run, by its method. */
export function runCharts(state: RunState, method: string): ChartSpec[] {
  return method === 'evolve' ? evolveCharts(state) : internalizeCharts(state);
}
