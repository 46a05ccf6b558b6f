import type { RunEvent } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import type { SkillFile } from '../read/read-skill-files.js';
import { buildEvolveView } from './evolve-view.js';

const base = { runId: 'r', time: '2026-01-01T00:00:00.000Z' };
const gen = (
  taskId: string,
  generation: number,
  meanReward: number,
  bestReward: number,
  metrics?: Record<string, number>,
) =>
  ({
    ...base,
    type: 'generation',
    taskId,
    generation,
    meanReward,
    bestReward,
    bestSkill: 'sk',
    ...(metrics ? { metrics } : {}),
  }) as RunEvent;
const file = (generation: number, scope: string, text: string): SkillFile => ({
  generation,
  scope,
  name: 'sk',
  path: `skills/${generation}/${scope}/sk/SKILL.md`,
  text,
});

describe('buildEvolveView', () => {
  const events: RunEvent[] = [
    gen('t/a', 0, 0.2, 0.2),
    gen('t/a', 1, 0.5, 0.75, { loss: 1 }),
    gen('t/a', 2, 0.7, 1),
    gen('t/b', 0, 0.4, 0.4),
    gen('t/b', 1, 0.1, 0.1),
    // A repeated event for the same generation (a hand-merged log): the later one counts.
    gen('t/b', 1, 0.6, 0.8, { loss: 3 }),
    {
      ...base,
      type: 'rollout',
      trajectoryId: 'x',
      taskId: 't/b',
      family: 'cool',
      condition: 1,
      reward: 1,
      passed: true,
    },
  ];
  const skills = [
    file(0, 't-a', 'x\n'),
    file(1, 't-a', 'x\ny\n'),
    file(2, 't-a', 'x\ny\n'),
    file(0, 't-b', 'p\n'),
    file(1, 't-b', 'q\n'),
  ];

  it('averages reward over the tasks present in each generation', () => {
    const view = buildEvolveView(events, skills, []);
    const reward = view.charts.find((c) => c.id === 'evolve-reward');
    // mean: g0 (0.2+0.4)/2 = 0.3, g1 (0.5+0.6)/2 = 0.55, g2 0.7 (task a only);
    // best: g0 (0.2+0.4)/2 = 0.3, g1 (0.75+0.8)/2 = 0.775, g2 1.
    const [mean, best] = reward?.series ?? [];
    expect(mean?.points.map((p) => p[0])).toEqual([0, 1, 2]);
    expect(mean?.points.map((p) => p[1])).toEqual([
      expect.closeTo(0.3),
      expect.closeTo(0.55),
      expect.closeTo(0.7),
    ]);
    expect(best?.points.map((p) => p[1])).toEqual([expect.closeTo(0.3), expect.closeTo(0.775), 1]);
    expect(reward?.yMin).toBe(0);
    expect(reward?.yMax).toBe(1);
    expect(view.generations).toEqual([0, 1, 2]);
    // Without a final re-run there is no third line.
    expect(reward?.series).toHaveLength(2);
  });

  it('draws the final skills re-run on fresh episodes as a point at the last generation', () => {
    const end = {
      ...base,
      type: 'run:end',
      status: 'completed',
      metrics: { final_eval_reward: 0.25 },
    } as RunEvent;
    const reward = buildEvolveView([...events, end], skills, []).charts.find((c) => c.id === 'evolve-reward');
    const reRun = reward?.series[2];
    expect(reRun?.label).toBe('final skills, re-run on fresh episodes');
    expect(reRun?.points).toEqual([[2, 0.25]]);
  });

  it("matches each best skill to its task's SKILL.md and diffs consecutive generations", () => {
    const view = buildEvolveView(events, skills, []);
    const [a, b] = view.tasks;
    expect(a?.taskId).toBe('t/a');
    expect(a?.rows.map((r) => r.skillText)).toEqual(['x\n', 'x\ny\n', 'x\ny\n']);
    expect(a?.changes.map((c) => [c.fromGeneration, c.toGeneration, c.diff?.added, c.diff?.removed])).toEqual(
      [
        [0, 1, 1, 0],
        [1, 2, undefined, undefined],
      ],
    );
    expect(b?.family).toBe('cool');
    expect(b?.changes[0]?.diff?.lines.filter((l) => l.kind !== 'hunk')).toEqual([
      { kind: 'del', text: 'p' },
      { kind: 'add', text: 'q' },
    ]);
  });

  it('averages generation metrics over tasks into one chart per metric', () => {
    const view = buildEvolveView(events, skills, []);
    // g1: task a loss 1, task b loss 3 → 2.
    expect(view.charts.find((c) => c.id === 'evolve-metric-loss')?.series[0]?.points).toEqual([[1, 2]]);
  });

  it('notes best skills whose SKILL.md is missing instead of guessing', () => {
    const notes: string[] = [];
    // Two candidates named "sk" in generation 1, neither in task a's folder: ambiguous, so no text.
    const view = buildEvolveView(
      [gen('t/a', 1, 0.5, 0.5)],
      [file(1, 'other-1', 'one'), file(1, 'other-2', 'two')],
      notes,
    );
    expect(view.tasks[0]?.rows[0]?.skillText).toBeUndefined();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('1 best skill(s)');
  });

  it('has no charts before the first generation finishes', () => {
    expect(buildEvolveView([], [], []).charts).toEqual([]);
  });
});
