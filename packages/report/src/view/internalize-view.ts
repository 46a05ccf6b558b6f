import type { RunEvent, StepEvent, ValidationEvent } from '@skillrl/core';
import { type ChartMarker, type ChartSeries, type ChartSpec, chartId, colorAt } from './chart-spec.js';
import { metricCharts } from './metric-charts.js';

/** A skill type leaving (or, under SKILL0's schedule, coming back into) the active set. */
export interface RetirementEvent {
  family: string;
  step: number;
  kind: 'retired' | 'restored';
  /** The validation gap (with − without) at that step, when it was measured. */
  gap?: number;
}

export interface ValidationRow {
  step: number;
  families: Record<
    string,
    { withSkill: number; withoutSkill: number; episodes?: number; withSkillEpisodes?: number }
  >;
  lambda: Record<string, number>;
  rho: Record<string, number>;
  retired: string[];
}

/** SKILLC: success with and without skills, the gap, λ and ρ per type, retirements, training metrics. */
export interface InternalizeView {
  families: string[];
  validations: ValidationRow[];
  retirements: RetirementEvent[];
  charts: ChartSpec[];
  omittedMetrics: string[];
  steps: number;
  /**
   * The run's trainer updated no policy (its validation events say `frozenPolicy`): the validations measured
   * the starting policy, and the λ/ρ and retirements drawn from them were decided against it.
   */
  frozenPolicy: boolean;
}

export interface InternalizeViewOptions {
  maxMetricCharts?: number;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function numberRecord(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => finite(e[1])));
}

export function buildInternalizeView(
  events: readonly RunEvent[],
  options: InternalizeViewOptions = {},
): InternalizeView {
  const byStep = new Map<number, ValidationEvent>();
  const stepEvents = new Map<number, StepEvent>();
  const familySet = new Set<string>();
  let frozenPolicy = false;
  for (const event of events) {
    if (event.type === 'validation' && event.frozenPolicy === true) frozenPolicy = true;
    if (event.type === 'validation') byStep.set(event.step, event);
    else if (event.type === 'step') stepEvents.set(event.step, event);
    else if (event.type === 'rollout') familySet.add(event.family);
  }
  const validations: ValidationRow[] = [...byStep.values()]
    .sort((a, b) => a.step - b.step)
    .map((e) => {
      const families: ValidationRow['families'] = {};
      for (const [family, value] of Object.entries(e.validation.families)) {
        if (value && finite(value.withSkill) && finite(value.withoutSkill)) {
          families[family] = {
            withSkill: value.withSkill,
            withoutSkill: value.withoutSkill,
            ...(finite(value.episodes) ? { episodes: value.episodes } : {}),
            ...(finite(value.withSkillEpisodes) ? { withSkillEpisodes: value.withSkillEpisodes } : {}),
          };
          familySet.add(family);
        }
      }
      const curriculum = e.curriculum;
      const retired = Array.isArray(curriculum?.retired)
        ? curriculum.retired.filter((f) => typeof f === 'string')
        : [];
      return {
        step: e.step,
        families,
        lambda: numberRecord(curriculum?.lambda),
        rho: numberRecord(curriculum?.rho),
        retired,
      };
    });
  for (const row of validations) {
    for (const f of [...Object.keys(row.lambda), ...Object.keys(row.rho), ...row.retired]) familySet.add(f);
  }
  const families = [...familySet].sort();
  const colorOf = (family: string) => colorAt(families.indexOf(family));

  const retirements: RetirementEvent[] = [];
  let before = new Set<string>();
  for (const row of validations) {
    const now = new Set(row.retired);
    for (const family of families) {
      const v = row.families[family];
      const gap = v ? { gap: v.withSkill - v.withoutSkill } : {};
      if (now.has(family) && !before.has(family))
        retirements.push({ family, step: row.step, kind: 'retired', ...gap });
      if (!now.has(family) && before.has(family))
        retirements.push({ family, step: row.step, kind: 'restored', ...gap });
    }
    before = now;
  }
  const markersFor = (family?: string): ChartMarker[] =>
    retirements
      .filter((r) => family === undefined || r.family === family)
      .map((r) => ({
        x: r.step,
        label: family === undefined ? `${r.family} ${r.kind}` : r.kind,
        color: r.kind === 'retired' ? colorOf(r.family) : '#6b7280',
      }));

  const perFamily = (pick: (row: ValidationRow, family: string) => number | undefined): ChartSeries[] =>
    families
      .map((family) => ({
        label: family,
        color: colorOf(family),
        points: validations
          .map((row): [number, number | undefined] => [row.step, pick(row, family)])
          .filter((p): p is [number, number] => p[1] !== undefined),
      }))
      .filter((s) => s.points.length > 0);

  const charts: ChartSpec[] = [];
  if (validations.length > 0) {
    const meanOver = (row: ValidationRow, key: 'withSkill' | 'withoutSkill') => {
      const values = Object.values(row.families).map((v) => v[key]);
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    };
    charts.push({
      id: 'skillc-success',
      title: 'Validation success with and without skills (mean over skill types)',
      xLabel: 'training step',
      yLabel: 'success rate',
      size: 'wide',
      yMin: 0,
      yMax: 1,
      markers: markersFor(),
      series: [
        {
          label: 'with skill',
          color: colorAt(0),
          points: validations.map((r) => [r.step, meanOver(r, 'withSkill')]),
        },
        {
          label: 'without skill',
          color: colorAt(1),
          points: validations.map((r) => [r.step, meanOver(r, 'withoutSkill')]),
        },
      ],
    });
    // The training dynamics SKILLC claims: the mean gap shrinks and crosses zero. A family whose with-skill
    // side ran no episode (no skill, or none active under SKILL0) has no gap and is left out.
    const meanGap = (row: ValidationRow) => {
      const measured = Object.values(row.families).filter((v) => v.withSkillEpisodes !== 0);
      return measured.length
        ? measured.reduce((a, v) => a + v.withSkill - v.withoutSkill, 0) / measured.length
        : undefined;
    };
    charts.push({
      id: 'skillc-gap-mean',
      title: 'Mean skill gap (success with − without, over types measured on both sides)',
      xLabel: 'training step',
      yLabel: 'gap',
      size: 'wide',
      markers: markersFor(),
      series: [
        {
          label: 'mean gap',
          color: colorAt(0),
          points: validations
            .map((r): [number, number | undefined] => [r.step, meanGap(r)])
            .filter((p): p is [number, number] => p[1] !== undefined),
        },
      ],
    });
    for (const family of families) {
      const points = (key: 'withSkill' | 'withoutSkill') =>
        validations
          .filter((r) => r.families[family])
          .map((r): [number, number] => [
            r.step,
            (r.families[family] as { withSkill: number; withoutSkill: number })[key],
          ]);
      if (points('withSkill').length === 0) continue;
      charts.push({
        id: chartId('skillc-success', family),
        title: `${family}: with vs without skill`,
        xLabel: 'training step',
        yLabel: 'success rate',
        size: 'small',
        yMin: 0,
        yMax: 1,
        markers: markersFor(family),
        series: [
          { label: 'with skill', color: colorOf(family), points: points('withSkill') },
          { label: 'without skill', color: colorOf(family), dashed: true, points: points('withoutSkill') },
        ],
      });
    }
    charts.push({
      id: 'skillc-gap',
      title: 'Skill gap per type (success with − without)',
      xLabel: 'training step',
      yLabel: 'gap',
      size: 'wide',
      markers: markersFor(),
      series: perFamily((row, f) => {
        const v = row.families[f];
        return v ? v.withSkill - v.withoutSkill : undefined;
      }),
    });
    const lambda = perFamily((row, f) => row.lambda[f]);
    if (lambda.length > 0) {
      charts.push({
        id: 'skillc-lambda',
        title: 'Attribution strength λ per type',
        xLabel: 'training step',
        yLabel: 'λ',
        size: 'wide',
        markers: markersFor(),
        series: lambda,
      });
    }
    const rho = perFamily((row, f) => row.rho[f]);
    if (rho.length > 0) {
      charts.push({
        id: 'skillc-rho',
        title: 'Share ρ of rollouts with the skill, per type',
        xLabel: 'training step',
        yLabel: 'ρ',
        size: 'wide',
        yMin: 0,
        yMax: 1,
        markers: markersFor(),
        series: rho,
      });
    }
  }
  const stepRows = [...stepEvents.values()]
    .sort((a, b) => a.step - b.step)
    .map((e) => ({ x: e.step, metrics: e.metrics as Record<string, unknown> }));
  const metrics = metricCharts('skillc-metric', stepRows, 'training step', options.maxMetricCharts ?? 12);
  charts.push(...metrics.charts);
  const steps = Math.max(0, ...stepRows.map((r) => r.x), ...validations.map((r) => r.step));
  if (frozenPolicy) {
    // Said on every curriculum chart, not only in the notes: a reader who jumps to a chart must not take
    // a retirement for internalization.
    for (const chart of charts) {
      if (!chart.id.startsWith('skillc-metric')) chart.title = `${chart.title} — frozen policy, no update`;
    }
  }
  return {
    families,
    validations,
    retirements,
    charts,
    omittedMetrics: metrics.omitted,
    steps,
    frozenPolicy,
  };
}
