import type { Skill, ValidationResult } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeSkillContext } from './compose-skill-context.js';
import { restoreCurriculum } from './restore-curriculum.js';
import {
  createSkill0Curriculum,
  type Skill0CurriculumJSON,
  type Skill0CurriculumOptions,
} from './skill0-curriculum.js';
import { createStaticCurriculum } from './static-curriculum.js';

// SkillZero's skills/alfworld/skill_mapping.json: six task types, five task files (pick_and_place and
// pick_two_obj_and_place share one) and general_skills.
const families = ['pick', 'pick2', 'look', 'clean', 'heat', 'cool'];
const files = {
  pick: 'pick_and_place',
  pick2: 'pick_and_place',
  look: 'look_at_obj_in_light',
  clean: 'clean',
  heat: 'heat',
  cool: 'cool',
};
const alfworld: Skill0CurriculumOptions = {
  families,
  files,
  generalSkills: ['general_skills'],
  totalSteps: 180, // train_alfworld_skillzero_7b.sh: total_training_steps=180, test_freq=10, [6,3,0]
  d: 10,
};
/** Validation with gap g per family (rates 0.5 ± g/2), 8 episodes per side unless given. */
const v = (step: number, gaps: Record<string, number>, episodes = 8): ValidationResult => ({
  step,
  families: Object.fromEntries(
    Object.entries(gaps).map(([f, g]) => [
      f,
      {
        withSkill: 0.5 + g / 2,
        withoutSkill: 0.5 - g / 2,
        withSkillEpisodes: episodes,
        withoutSkillEpisodes: episodes,
      },
    ]),
  ),
});
const all = (g: number) => Object.fromEntries(families.map((f) => [f, g]));

describe('SKILL0 curriculum (as SkillZero code does it)', () => {
  it('phase rule: M from the validation index (step − 1) // d over equal phases of the validations', () => {
    const c = createSkill0Curriculum(alfworld);
    // 18 validations, 6 per phase. Index (s − 1) // 10: step 60 → 5 (phase 0), 70 → 6 (phase 1),
    // 130 → 12 (phase 2). So the set chosen at step 60 still has M = 6: steps 1–70 train under M = 6.
    expect([10, 60, 70, 120, 130, 180].map((s) => c.maxSetSize(s))).toEqual([6, 6, 3, 3, 0, 0]);
    // Step 0 (SKILL0's val_before_train): ours uses the first phase...
    expect(c.maxSetSize(0)).toBe(6);
    // ...SKILL0's code computes index −1 and Python's schedule[−1] picks the last phase (M = 0).
    expect(createSkill0Curriculum({ ...alfworld, reproduceStepZeroQuirk: true }).maxSetSize(0)).toBe(0);
    // Where SKILL0 would refuse (validations not a multiple of phases) the validations split proportionally.
    const odd = createSkill0Curriculum({ ...alfworld, totalSteps: 40 }); // 4 validations, 3 phases
    expect([10, 20, 30, 40].map((s) => odd.maxSetSize(s))).toEqual([6, 6, 3, 0]);
    expect(c.validationDue(0)).toBe(true);
    expect(c.validationDue(15)).toBe(false);
  });

  it('every file is active before the first validation; M = 6 keeps all five task files, Pick2 included', () => {
    const c = createSkill0Curriculum(alfworld);
    const everything = ['general_skills', 'pick_and_place', 'look_at_obj_in_light', 'clean', 'heat', 'cool'];
    expect(c.activeFiles()).toEqual(everything);
    expect(c.withSkillFiles('pick2')).toEqual(['general_skills', 'pick_and_place']);
    // Step-0 validation, M = 6 = general + 5: every task file with Δ ≥ 0 stays, ranked by Δ.
    const s = c.observe(v(0, { pick: 0.1, pick2: 0.3, look: 0.05, clean: 0.4, heat: 0, cool: 0.25 }));
    expect(c.activeFiles()).toEqual([
      'general_skills',
      'clean',
      'cool',
      'pick_and_place',
      'look_at_obj_in_light',
      'heat',
    ]);
    expect(s.active).toEqual(families);
    expect(c.withSkillFiles('pick2')).toEqual(['general_skills', 'pick_and_place']);
    expect(c.withSkillFiles('heat')).toEqual(['general_skills', 'heat']);
    expect(s.rho).toEqual(Object.fromEntries(families.map((f) => [f, 1])));
    expect(s.lambda).toEqual(Object.fromEntries(families.map((f) => [f, 0])));
  });

  it('averages Pick and Pick2 into their shared file, drops Δ < 0, and lets a dropped file come back', () => {
    const c = createSkill0Curriculum(alfworld);
    // pick_and_place = mean(0.3, −0.1) = 0.1 ≥ 0: kept for both. clean −0.2: dropped.
    let s = c.observe(v(10, { pick: 0.3, pick2: -0.1, look: 0.2, clean: -0.2, heat: 0.5, cool: 0.05 }));
    expect(c.fileGaps().pick_and_place).toBeCloseTo(0.1, 12);
    expect(c.activeFiles()).toEqual([
      'general_skills',
      'heat',
      'look_at_obj_in_light',
      'pick_and_place',
      'cool',
    ]);
    expect(s.retired).toEqual(['clean']);
    // An inactive family still gets the general skills in its with-skill prompt (and in training: ρ = 1).
    expect(c.withSkillFiles('clean')).toEqual(['general_skills']);
    expect(s.rho.clean).toBe(1);
    // pick_and_place = mean(−0.3, 0.1) = −0.1: dropped for Pick and Pick2 alike. clean recovers: back.
    s = c.observe(v(20, { pick: -0.3, pick2: 0.1, look: 0.2, clean: 0.1, heat: 0.5, cool: 0.05 }));
    expect(c.activeFiles()).toEqual(['general_skills', 'heat', 'look_at_obj_in_light', 'clean', 'cool']);
    expect(s.retired).toEqual(['pick', 'pick2']);
    expect(c.withSkillFiles('pick2')).toEqual(['general_skills']);
    // The final test uses every file regardless: general, then the family's own.
    expect(c.testSkillFiles('pick2')).toEqual(['general_skills', 'pick_and_place']);
  });

  it('M = 3 keeps general + top 2; M = 0 switches everything off, general included', () => {
    const c = createSkill0Curriculum(alfworld);
    const gaps = { pick: 0.2, pick2: 0.2, look: 0.1, clean: 0.3, heat: 0.5, cool: 0.05 };
    let s = c.observe(v(70, gaps));
    expect(c.activeFiles()).toEqual(['general_skills', 'heat', 'clean']);
    expect(s.active).toEqual(['clean', 'heat']);
    expect(c.withSkillFiles('pick')).toEqual(['general_skills']);
    s = c.observe(v(130, gaps));
    expect(c.activeFiles()).toEqual([]);
    expect(s.active).toEqual([]);
    expect(c.withSkillFiles('heat')).toEqual([]);
    expect(s.rho).toEqual(Object.fromEntries(families.map((f) => [f, 0])));
  });

  it('a file with no measured Δ is not a candidate (absent, or a side that ran no episode)', () => {
    const c = createSkill0Curriculum(alfworld);
    const gaps = { pick: 0.2, pick2: 0.2, look: 0.1, clean: 0.3, heat: 0.5 }; // no cool at all
    const validation = v(10, gaps);
    validation.families.heat!.withoutSkillEpisodes = 0; // heat's skill-free side did not run
    c.observe(validation);
    expect(c.fileGaps()).toMatchObject({ cool: null, heat: null });
    expect(c.activeFiles()).toEqual(['general_skills', 'clean', 'pick_and_place', 'look_at_obj_in_light']);
    // Pick2 alone measured: the shared file takes its gap.
    c.observe(v(20, { pick2: 0.4 }));
    expect(c.activeFiles()).toEqual(['general_skills', 'pick_and_place']);
  });

  it('the step-0 quirk, when reproduced, leaves steps 1–10 without skills', () => {
    const c = createSkill0Curriculum({ ...alfworld, reproduceStepZeroQuirk: true });
    c.observe(v(0, all(0.2)));
    expect(c.activeFiles()).toEqual([]);
    expect(c.state().active).toEqual([]);
    c.observe(v(10, all(0.2)));
    expect(c.activeFiles()).toHaveLength(6);
    // Without the quirk the step-0 validation already applies M = 6.
    const ours = createSkill0Curriculum(alfworld);
    ours.observe(v(0, all(0.2)));
    expect(ours.activeFiles()).toHaveLength(6);
  });

  it('M counts each general file; with none, M task files; ties keep family order', () => {
    const none = createSkill0Curriculum({ ...alfworld, generalSkills: [] });
    none.observe(v(70, all(0.1))); // M = 3, no general file: three task files
    expect(none.activeFiles()).toEqual(['pick_and_place', 'look_at_obj_in_light', 'clean']);
    expect(none.withSkillFiles('heat')).toEqual([]);
    expect(none.state().rho.heat).toBe(0);
    const two = createSkill0Curriculum({ ...alfworld, generalSkills: ['general_skills', 'safety'] });
    two.observe(v(70, all(0.1))); // M = 3 = two general + one task file
    expect(two.activeFiles()).toEqual(['general_skills', 'safety', 'pick_and_place']);
    expect(two.withSkillFiles('pick2')).toEqual(['general_skills', 'safety', 'pick_and_place']);
  });

  it('the active set is the general files + the top measured non-negative files (property)', () => {
    const gap = fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined });
    fc.assert(
      fc.property(fc.array(gap, { minLength: 6, maxLength: 6 }), fc.integer({ min: 1, max: 18 }), (gs, k) => {
        const c = createSkill0Curriculum(alfworld);
        const measured: Record<string, number> = {};
        gs.forEach((g, i) => {
          if (g !== undefined) measured[families[i]!] = g;
        });
        c.observe(v(10 * k, measured));
        const m = c.maxSetSize(10 * k);
        const active = c.activeFiles();
        if (m === 0) {
          expect(active).toEqual([]);
          return;
        }
        expect(active[0]).toBe('general_skills');
        const task = active.slice(1);
        expect(task.length).toBeLessThanOrEqual(m - 1);
        const fileGaps = c.fileGaps();
        for (const f of task) expect(fileGaps[f]).toBeGreaterThanOrEqual(0);
        // Nothing left out ranks above a file kept, and a file is left out only when the set is full.
        const out = Object.keys(fileGaps).filter((f) => !task.includes(f) && (fileGaps[f] ?? -1) >= 0);
        if (out.length > 0) expect(task).toHaveLength(m - 1);
        for (const f of out) for (const t of task) expect(fileGaps[f]!).toBeLessThanOrEqual(fileGaps[t]!);
        for (const family of families) {
          expect(c.withSkillFiles(family)).toEqual(
            task.includes(files[family as keyof typeof files])
              ? ['general_skills', files[family as keyof typeof files]]
              : ['general_skills'],
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips through JSON, and restores a checkpoint written before activeFiles', () => {
    const c = createSkill0Curriculum({ ...alfworld, generalSkills: ['general_skills', 'safety'] });
    const fresh = restoreCurriculum(JSON.parse(JSON.stringify(c.toJSON())) as Skill0CurriculumJSON);
    expect(fresh.state()).toEqual(c.state());
    c.observe(v(10, { pick: 0.3, pick2: 0.1, clean: -0.1, heat: 0.5, cool: 0.05, look: 0.25 }));
    const json = JSON.parse(JSON.stringify(c.toJSON())) as Skill0CurriculumJSON;
    const restored = restoreCurriculum(json);
    expect(restored.state()).toEqual(c.state());
    expect(restored.toJSON()).toEqual(c.toJSON());
    const next = v(70, { pick: 0.4, pick2: 0.1, clean: 0.3, heat: -0.5, cool: 0.05, look: 0.1 });
    expect(restored.observe(next)).toEqual(c.observe(next));
    expect(restored.toJSON()).toEqual(c.toJSON());

    // Older checkpoints had no activeFiles: the set is recomputed from the saved gaps at the saved step.
    const { activeFiles: _, ...old } = json;
    const fromOld = restoreCurriculum(old as Skill0CurriculumJSON) as ReturnType<
      typeof createSkill0Curriculum
    >;
    expect(fromOld.activeFiles()).toEqual([
      'general_skills',
      'safety',
      'heat',
      'look_at_obj_in_light',
      'pick_and_place',
      'cool',
    ]);
    expect(() => restoreCurriculum({ ...json, activeFiles: ['nope'] })).toThrow(/activeFiles/);
  });

  it('rejects bad options and validations without counts', () => {
    expect(() => createSkill0Curriculum({ families, totalSteps: 0 })).toThrow(/options\.totalSteps/);
    expect(() => createSkill0Curriculum({ families, totalSteps: 9, maxSetSchedule: [] })).toThrow(
      /maxSetSchedule/,
    );
    expect(() => createSkill0Curriculum({ families, totalSteps: 9, files: { pick: 'p' } })).toThrow(
      /options\.files\.pick2/,
    );
    expect(() => createSkill0Curriculum({ ...alfworld, generalSkills: ['heat'] })).toThrow(
      /options\.generalSkills.*task file of heat/,
    );
    expect(() => createSkill0Curriculum({ ...alfworld, reproduceStepZeroQuirk: 'yes' as never })).toThrow(
      /reproduceStepZeroQuirk/,
    );
    const c = createSkill0Curriculum(alfworld);
    expect(() =>
      c.observe({ step: 10, families: { heat: { withSkill: 1, withoutSkill: 0 } } } as never),
    ).toThrow(/validation\.families\.heat\.withSkillEpisodes/);
    expect(() => c.withSkillFiles('constructor')).toThrow(/unknown family "constructor"/);
    c.observe(v(20, all(0.1)));
    expect(() => c.observe(v(10, all(0.1)))).toThrow(/went backwards/);
    expect(() => restoreCurriculum({ kind: 'other' } as never)).toThrow(/unknown kind "other"/);
  });
});

describe('composeSkillContext', () => {
  const skill = (name: string, body: string): Skill => ({ name, description: `${name} skill`, body });
  const general = skill('general-skills', 'Look before you act.\n');
  const pick = { ...skill('pick-and-place', '1. Find the object.'), families: ['pick', 'pick2'] };

  it("joins the files' bodies in order, SKILL0's GENERAL SKILLS then the task section", () => {
    const composed = composeSkillContext(['general-skills', 'pick-and-place'], [general, pick]);
    expect(composed).toEqual({
      ...pick,
      body: 'Look before you act.\n\n1. Find the object.',
      metadata: { 'skill-files': 'general-skills pick-and-place' },
    });
    // One file: the skill itself (same name and text, so the same hash in the run directory).
    expect(composeSkillContext(['pick-and-place'], { 'pick-and-place': pick })).toBe(pick);
    // No file: no skill, the episode runs skill-free.
    expect(composeSkillContext([], [general])).toBeUndefined();
    expect(() => composeSkillContext(['general'], [general])).toThrow(/skills\.general/);
  });

  it('builds what a SKILL0 curriculum says each family sees', () => {
    const c = createSkill0Curriculum({
      families: ['pick', 'pick2'],
      files: { pick: 'pick-and-place', pick2: 'pick-and-place' },
      generalSkills: ['general-skills'],
      totalSteps: 30,
    });
    c.observe(v(0, { pick: -0.5, pick2: 0.1 }));
    expect(composeSkillContext(c.withSkillFiles('pick2'), [general, pick])).toBe(general);
    expect(composeSkillContext(c.testSkillFiles('pick2'), [general, pick])?.body).toContain(
      'Find the object',
    );
  });
});

describe('static curriculum', () => {
  it('never changes, and round-trips', () => {
    const c = createStaticCurriculum({ families: ['a', 'b'], rho: 0.5, lambda: 0.3 });
    const before = c.state();
    const after = c.observe(v(10, { a: 1 }));
    expect(after).toEqual({ ...before, step: 10 });
    expect(after.rho).toEqual({ a: 0.5, b: 0.5 });
    expect(restoreCurriculum(JSON.parse(JSON.stringify(c.toJSON()))).state()).toEqual(after);
    expect(createStaticCurriculum({ families: ['a'], rho: 0 }).state().active).toEqual([]);
    expect(() => createStaticCurriculum({ families: ['a'], rho: 2 })).toThrow(/options\.rho/);
  });
});
