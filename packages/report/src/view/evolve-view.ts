import type { GenerationEvent, RolloutEvent, RunEvent } from '@skillrl/core';
import { mean, taskSlug } from '@skillrl/core';
import { diffSkills, type SkillDiff } from '../diff/skill-diff.js';
import type { SkillFile } from '../read/read-skill-files.js';
import { type ChartSpec, colorAt } from './chart-spec.js';
import { metricCharts } from './metric-charts.js';

export interface GenerationRow {
  generation: number;
  meanReward: number;
  bestReward: number;
  /** `''` when the generation ran without a skill (the no-skill baseline's generation 0). */
  bestSkill: string;
  skillPath?: string;
  skillText?: string;
}

export interface SkillChange {
  fromGeneration: number;
  toGeneration: number;
  /** Absent when the text did not change. */
  diff?: SkillDiff;
}

export interface TaskEvolution {
  taskId: string;
  family?: string;
  rows: GenerationRow[];
  changes: SkillChange[];
}

/** Skill-R1: reward per generation and the best skill's text and diffs, per task. */
export interface EvolveView {
  tasks: TaskEvolution[];
  generations: number[];
  charts: ChartSpec[];
  omittedMetrics: string[];
}

export interface EvolveViewOptions {
  /** Training metric charts drawn at most (default 8). */
  maxMetricCharts?: number;
}

/** The SKILL.md a generation event's best skill was written to, if it can be told apart from others. */
function findSkill(index: Map<string, SkillFile[]>, taskId: string, generation: number, name: string) {
  const candidates = index.get(`${generation}|${name}`) ?? [];
  const slug = taskSlug(taskId);
  return (
    candidates.find((s) => s.scope === slug) ??
    candidates.find((s) => s.scope === '') ??
    (candidates.length === 1 ? candidates[0] : undefined)
  );
}

/** `[min, max]` pinned to [0, 1] when every value is a rate, so two runs' charts compare at a glance. */
function unitRange(values: number[]): { yMin?: number; yMax?: number } {
  return values.length > 0 && values.every((v) => v >= 0 && v <= 1) ? { yMin: 0, yMax: 1 } : {};
}

export function buildEvolveView(
  events: readonly RunEvent[],
  skills: readonly SkillFile[],
  notes: string[],
  options: EvolveViewOptions = {},
): EvolveView {
  const byTask = new Map<string, Map<number, GenerationEvent>>();
  const families = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'generation') {
      const gens = byTask.get(event.taskId) ?? new Map<number, GenerationEvent>();
      byTask.set(event.taskId, gens);
      gens.set(event.generation, event);
    } else if (event.type === 'rollout' && !families.has(event.taskId)) {
      families.set(event.taskId, (event as RolloutEvent).family);
    }
  }
  const index = new Map<string, SkillFile[]>();
  for (const skill of skills) {
    const key = `${skill.generation}|${skill.name}`;
    index.set(key, [...(index.get(key) ?? []), skill]);
  }

  let unmatched = 0;
  const tasks: TaskEvolution[] = [...byTask.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([taskId, gens]) => {
      const rows = [...gens.values()]
        .sort((a, b) => a.generation - b.generation)
        .map((e): GenerationRow => {
          const bestSkill = typeof e.bestSkill === 'string' ? e.bestSkill : '';
          const file = bestSkill ? findSkill(index, taskId, e.generation, bestSkill) : undefined;
          if (bestSkill && !file) unmatched++;
          return {
            generation: e.generation,
            meanReward: e.meanReward,
            bestReward: e.bestReward,
            bestSkill,
            ...(file ? { skillPath: file.path, skillText: file.text } : {}),
          };
        });
      const changes: SkillChange[] = [];
      let previous: GenerationRow | undefined;
      for (const row of rows) {
        if (row.skillText === undefined) continue;
        if (previous?.skillText !== undefined) {
          const same = previous.skillText === row.skillText;
          changes.push({
            fromGeneration: previous.generation,
            toGeneration: row.generation,
            ...(same
              ? {}
              : {
                  diff: diffSkills(previous.skillText, row.skillText, {
                    from: `generation ${previous.generation}`,
                    to: `generation ${row.generation}`,
                  }),
                }),
          });
        }
        previous = row;
      }
      const family = families.get(taskId);
      return { taskId, ...(family ? { family } : {}), rows, changes };
    });
  if (unmatched > 0) {
    notes.push(
      `skills/: ${unmatched} best skill(s) named in generation events have no SKILL.md in the run directory, so their text is not shown.`,
    );
  }

  const generations = [...new Set(tasks.flatMap((t) => t.rows.map((r) => r.generation)))].sort(
    (a, b) => a - b,
  );
  const charts: ChartSpec[] = [];
  let omittedMetrics: string[] = [];
  if (generations.length > 0) {
    const at = (g: number, pick: (r: GenerationRow) => number) => {
      const values = tasks.flatMap((t) => t.rows.filter((r) => r.generation === g).map(pick));
      return values.length > 0 ? mean(values) : null;
    };
    // The best candidate's reward is the maximum of K noisy M-episode means; the orchestrator's
    // `finalEpisodes` re-runs the carried skills on fresh episodes, which says what selection really found.
    const end = events.find((e) => e.type === 'run:end');
    const reRun = end?.type === 'run:end' ? end.metrics?.final_eval_reward : undefined;
    const lastGeneration = generations[generations.length - 1] as number;
    const all = tasks.flatMap((t) => t.rows.flatMap((r) => [r.meanReward, r.bestReward]));
    if (reRun !== undefined) all.push(reRun);
    charts.push({
      id: 'evolve-reward',
      title: `Reward per generation (mean over ${tasks.length} task${tasks.length === 1 ? '' : 's'})`,
      xLabel: 'generation',
      yLabel: 'reward',
      size: 'wide',
      ...unitRange(all),
      series: [
        {
          label: 'mean reward',
          color: colorAt(0),
          points: generations.map((g) => [g, at(g, (r) => r.meanReward)]),
        },
        {
          label: 'best candidate',
          color: colorAt(1),
          dashed: true,
          points: generations.map((g) => [g, at(g, (r) => r.bestReward)]),
        },
        ...(reRun === undefined
          ? []
          : [
              {
                label: 'final skills, re-run on fresh episodes',
                color: colorAt(2),
                points: [[lastGeneration, reRun]] as [number, number | null][],
              },
            ]),
      ],
    });
    // With few tasks each one's best is worth a line of its own; with many, the means alone stay legible.
    const withBest = tasks.length <= 5;
    charts.push({
      id: 'evolve-reward-tasks',
      title: withBest
        ? 'Reward per generation, per task (solid: mean, dashed: best)'
        : 'Mean reward per generation, per task',
      xLabel: 'generation',
      yLabel: 'reward',
      size: 'wide',
      ...unitRange(all),
      series: tasks.flatMap((t, i) => [
        {
          label: t.taskId,
          color: colorAt(i),
          points: t.rows.map((r): [number, number] => [r.generation, r.meanReward]),
        },
        ...(withBest
          ? [
              {
                label: `${t.taskId} (best)`,
                color: colorAt(i),
                dashed: true,
                points: t.rows.map((r): [number, number] => [r.generation, r.bestReward]),
              },
            ]
          : []),
      ]),
    });
    const metricRows = generations.map((g) => {
      const sums = new Map<string, number[]>();
      for (const event of byTask.values()) {
        for (const [key, value] of Object.entries(event.get(g)?.metrics ?? {})) {
          if (typeof value === 'number' && Number.isFinite(value))
            sums.set(key, [...(sums.get(key) ?? []), value]);
        }
      }
      return { x: g, metrics: Object.fromEntries([...sums].map(([k, v]) => [k, mean(v)])) };
    });
    const metrics = metricCharts('evolve-metric', metricRows, 'generation', options.maxMetricCharts ?? 8);
    charts.push(...metrics.charts);
    omittedMetrics = metrics.omitted;
  }
  return { tasks, generations, charts, omittedMetrics };
}
