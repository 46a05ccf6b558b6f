import { describe, expect, it } from 'vitest';
import { restoreCurriculum } from './restore-curriculum.js';
import { createSkill0Curriculum, type Skill0CurriculumJSON } from './skill0-curriculum.js';
import { createStaticCurriculum } from './static-curriculum.js';

const families = ['pick', 'pick2', 'clean', 'heat', 'cool', 'look'];
const files = { pick: 'pick', pick2: 'pick', clean: 'clean', heat: 'heat', cool: 'cool', look: 'look' };
const v = (step: number, gaps: Record<string, number>) => ({
  step,
  families: Object.fromEntries(
    Object.entries(gaps).map(([f, g]) => [f, { withSkill: 0.5 + g / 2, withoutSkill: 0.5 - g / 2 }]),
  ),
});

describe('SKILL0 curriculum', () => {
  it('ranks files by Δ, drops negative ones, follows [6, 3, 0], and lets a dropped file come back', () => {
    const c = createSkill0Curriculum({ families, files, totalSteps: 90 });
    expect([0, 29, 30, 59, 60, 89].map((s) => c.maxSetSize(s))).toEqual([6, 6, 3, 3, 0, 0]);
    // Before any measurement every file is in (5 files ≤ M − 1 = 5).
    expect(c.activeFiles()).toEqual(['general', 'pick', 'clean', 'heat', 'cool', 'look']);

    // pick file = mean(0.3, 0.1) = 0.2; clean −0.1 is dropped; ranking heat 0.5, pick 0.2, look 0.2, cool 0.05.
    let s = c.observe(v(10, { pick: 0.3, pick2: 0.1, clean: -0.1, heat: 0.5, cool: 0.05, look: 0.2 }));
    expect(c.activeFiles()).toEqual(['general', 'heat', 'pick', 'look', 'cool']);
    expect(s.retired).toEqual(['clean']);
    expect(s.rho).toMatchObject({ clean: 0, heat: 1, pick: 1, pick2: 1 });

    // Phase 2 (M = 3 → top 2): clean's gap is now 0.3, so it returns — SKILL0 is not monotone.
    s = c.observe(v(40, { pick: 0.2, pick2: 0.2, clean: 0.3, heat: 0.5, cool: 0.05, look: 0.1 }));
    expect(c.activeFiles()).toEqual(['general', 'heat', 'clean']);
    expect(s.active).toEqual(['clean', 'heat']);
    expect(s.retired).toEqual(['pick', 'pick2', 'cool', 'look']);

    // Phase 3: M = 0 is the hard switch — no skills at all, general ones included.
    s = c.observe(v(60, { pick: 0.2, pick2: 0.2, clean: 0.3, heat: 0.5, cool: 0.05, look: 0.1 }));
    expect(c.activeFiles()).toEqual([]);
    expect(s.active).toEqual([]);
  });

  it('round-trips through JSON', () => {
    const c = createSkill0Curriculum({
      families,
      files,
      totalSteps: 90,
      generalSkills: ['general', 'safety'],
    });
    c.observe(v(10, { pick: 0.3, pick2: 0.1, clean: -0.1, heat: 0.5, cool: 0.05, look: 0.2 }));
    const restored = restoreCurriculum(JSON.parse(JSON.stringify(c.toJSON())) as Skill0CurriculumJSON);
    expect(restored.state()).toEqual(c.state());
    const next = v(40, { pick: 0.4, pick2: 0.1, clean: 0.3, heat: -0.5, cool: 0.05, look: 0.1 });
    expect(restored.observe(next)).toEqual(c.observe(next));
    expect(restored.toJSON()).toEqual(c.toJSON());
  });

  it('rejects bad options', () => {
    expect(() => createSkill0Curriculum({ families, totalSteps: 0 })).toThrow(/options\.totalSteps/);
    expect(() => createSkill0Curriculum({ families, totalSteps: 9, maxSetSchedule: [] })).toThrow(
      /maxSetSchedule/,
    );
    expect(() => createSkill0Curriculum({ families, totalSteps: 9, files: { pick: 'p' } })).toThrow(
      /options\.files\.pick2/,
    );
    expect(() => restoreCurriculum({ kind: 'other' } as never)).toThrow(/unknown kind "other"/);
  });
});

describe('static curriculum', () => {
  it('never changes, and round-trips', () => {
    const c = createStaticCurriculum({ families: ['a', 'b'], rho: 0.5, lambda: 0.3 });
    const before = c.state();
    const after = c.observe({ step: 10, families: { a: { withSkill: 1, withoutSkill: 0 } } });
    expect(after).toEqual({ ...before, step: 10 });
    expect(after.rho).toEqual({ a: 0.5, b: 0.5 });
    expect(restoreCurriculum(JSON.parse(JSON.stringify(c.toJSON()))).state()).toEqual(after);
    expect(createStaticCurriculum({ families: ['a'], rho: 0 }).state().active).toEqual([]);
    expect(() => createStaticCurriculum({ families: ['a'], rho: 2 })).toThrow(/options\.rho/);
  });
});
