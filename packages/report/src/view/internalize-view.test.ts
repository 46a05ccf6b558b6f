import type { RunEvent } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { buildInternalizeView } from './internalize-view.js';

const base = { runId: 'r', time: '2026-01-01T00:00:00.000Z' };
const validation = (
  step: number,
  f1: [number, number],
  f2: [number, number],
  retired: string[],
  lambda = 1,
): RunEvent => ({
  ...base,
  type: 'validation',
  step,
  validation: {
    step,
    families: {
      f1: { withSkill: f1[0], withoutSkill: f1[1], withSkillEpisodes: 8, withoutSkillEpisodes: 8 },
      f2: { withSkill: f2[0], withoutSkill: f2[1], withSkillEpisodes: 8, withoutSkillEpisodes: 8 },
    },
  },
  curriculum: {
    step,
    lambda: { f1: retired.includes('f1') ? 0 : lambda, f2: retired.includes('f2') ? 0 : lambda },
    rho: { f1: 0.5, f2: 0.5 },
    active: ['f1', 'f2'].filter((f) => !retired.includes(f)),
    retired,
  },
});

describe('buildInternalizeView', () => {
  const events: RunEvent[] = [
    validation(4, [0.9, 0.2], [0.8, 0.1], []),
    validation(8, [0.9, 0.85], [0.8, 0.3], ['f1']),
    validation(12, [0.9, 0.9], [0.8, 0.75], ['f1', 'f2']),
    // SKILL0's schedule can bring a skill back: that is a "restored" event, not a retirement.
    validation(16, [0.9, 0.6], [0.8, 0.8], ['f2']),
    { ...base, type: 'step', step: 1, metrics: { loss: 0.9, kl: 0.01 } },
    { ...base, type: 'step', step: 2, metrics: { loss: 0.7 } },
  ];

  it('finds each retirement and restoration with the gap measured then', () => {
    const view = buildInternalizeView(events);
    expect(view.families).toEqual(['f1', 'f2']);
    expect(view.retirements.map((r) => [r.family, r.step, r.kind])).toEqual([
      ['f1', 8, 'retired'],
      ['f2', 12, 'retired'],
      ['f1', 16, 'restored'],
    ]);
    // gaps: f1 at 8 is 0.9 − 0.85 = 0.05; f2 at 12 is 0.8 − 0.75 = 0.05; f1 at 16 is 0.9 − 0.6 = 0.3.
    expect(view.retirements.map((r) => r.gap)).toEqual([
      expect.closeTo(0.05),
      expect.closeTo(0.05),
      expect.closeTo(0.3),
    ]);
  });

  it('charts the mean success with and without, the gap, λ and ρ, and marks the retirements', () => {
    const view = buildInternalizeView(events);
    const ids = view.charts.map((c) => c.id);
    expect(ids).toEqual([
      'skillc-success',
      'skillc-gap-mean',
      'skillc-success-f1',
      'skillc-success-f2',
      'skillc-gap',
      'skillc-lambda',
      'skillc-rho',
      'skillc-metric-loss',
      'skillc-metric-kl',
    ]);
    const success = view.charts[0];
    // step 4: with (0.9 + 0.8)/2 = 0.85, without (0.2 + 0.1)/2 = 0.15.
    expect(success?.series[0]?.points[0]).toEqual([4, expect.closeTo(0.85)]);
    expect(success?.series[1]?.points[0]).toEqual([4, expect.closeTo(0.15)]);
    // Mean gap per validation: (0.7 + 0.7)/2, (0.05 + 0.5)/2, (0 + 0.05)/2, (0.3 + 0)/2.
    expect(view.charts[1]?.series[0]?.points).toEqual([
      [4, expect.closeTo(0.7)],
      [8, expect.closeTo(0.275)],
      [12, expect.closeTo(0.025)],
      [16, expect.closeTo(0.15)],
    ]);
    const gap = view.charts.find((c) => c.id === 'skillc-gap');
    expect(gap?.series[0]?.points.map((p) => p[1])).toEqual([
      expect.closeTo(0.7),
      expect.closeTo(0.05),
      expect.closeTo(0),
      expect.closeTo(0.3),
    ]);
    expect(gap?.markers?.map((m) => m.label)).toEqual(['f1 retired', 'f2 retired', 'f1 restored']);
    expect(
      view.charts.find((c) => c.id === 'skillc-success-f1')?.markers?.map((m) => [m.x, m.label]),
    ).toEqual([
      [8, 'retired'],
      [16, 'restored'],
    ]);
    expect(view.charts.find((c) => c.id === 'skillc-lambda')?.series[0]?.points).toEqual([
      [4, 1],
      [8, 0],
      [12, 0],
      [16, 1],
    ]);
    expect(view.steps).toBe(16);
  });

  it('leaves a family whose with-skill side ran nothing out of the mean gap', () => {
    const event = validation(0, [0.5, 0.1], [0.3, 0.3], []);
    if (event.type !== 'validation') throw new Error('unreachable');
    event.validation.families.f2 = {
      withSkill: 0.3,
      withoutSkill: 0.3,
      withSkillEpisodes: 0,
      withoutSkillEpisodes: 8,
    };
    const view = buildInternalizeView([event]);
    expect(view.charts.find((c) => c.id === 'skillc-gap-mean')?.series[0]?.points).toEqual([
      [0, expect.closeTo(0.4)],
    ]);
  });

  it('drops malformed validation entries rather than drawing NaN', () => {
    const bad = {
      ...base,
      type: 'validation',
      step: 3,
      validation: { step: 3, families: { f1: { withSkill: 'high', withoutSkill: 0.1 }, f2: null } },
    } as unknown as RunEvent;
    const view = buildInternalizeView([bad]);
    expect(view.validations).toEqual([{ step: 3, families: {}, lambda: {}, rho: {}, retired: [] }]);
    expect(view.charts.find((c) => c.id === 'skillc-gap')?.series).toEqual([]);
  });

  it('draws only training metrics when no validation ran yet', () => {
    const view = buildInternalizeView(events.filter((e) => e.type === 'step'));
    expect(view.charts.map((c) => c.id)).toEqual(['skillc-metric-loss', 'skillc-metric-kl']);
    expect(view.retirements).toEqual([]);
  });

  it('says on every curriculum chart that the policy was frozen when the validations say so', () => {
    const frozen = events.map((e) => (e.type === 'validation' ? { ...e, frozenPolicy: true } : e));
    const view = buildInternalizeView(frozen);
    expect(view.frozenPolicy).toBe(true);
    const curriculumCharts = view.charts.filter((c) => !c.id.startsWith('skillc-metric'));
    expect(curriculumCharts.length).toBeGreaterThan(0);
    for (const chart of curriculumCharts) expect(chart.title).toMatch(/frozen policy, no update$/);
    expect(buildInternalizeView(events).frozenPolicy).toBe(false);
    expect(buildInternalizeView(events).charts.some((c) => c.title.includes('frozen'))).toBe(false);
  });
});
