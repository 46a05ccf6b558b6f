import type { CurriculumController, CurriculumState, Skill } from '@skillrl/core';
import { skillForFamily } from '@skillrl/core';
import { composeSkillContext } from '../compose-skill-context.js';

/**
 * An adapter's skill inventory read as SKILL0 lays it out: one own file per family and the general files
 * beside them, and the with-skill context each family's prompt carries in full.
 */
export interface SkillContexts {
  /** Per family, its own skill file's name: the most specific skill that lists it (Pick and Pick2 share one). */
  files: Record<string, string>;
  /** General skill files: they list every family and are no family's own file. */
  general: string[];
  /**
   * Per family, its full with-skill context: the general files' sections, then its own
   * (`env_manager._get_skill_context` in ZJU-REAL/SkillZero). Every variant carries the same context, so the
   * rows of a table differ in the method alone. A family without a file of its own has none.
   */
  full: Record<string, Skill>;
}

/** Reads `skills` (the adapter's `skills()`) into each family's file and full with-skill context. */
export function skillContexts(families: readonly string[], skills: readonly Skill[]): SkillContexts {
  const files: Record<string, string> = {};
  for (const family of families) {
    const own = skillForFamily(skills, family);
    if (own) files[family] = own.name;
  }
  const owned = new Set(Object.values(files));
  const general = skills
    .filter((s) => !owned.has(s.name) && families.every((f) => s.families?.includes(f)))
    .map((s) => s.name);
  const full: Record<string, Skill> = {};
  for (const [family, file] of Object.entries(files)) {
    const skill = composeSkillContext([...general, file], skills);
    if (skill) full[family] = skill;
  }
  return { files, general, full };
}

/** Which skill each family's prompts carry during a run, as the curriculum decides step by step. */
export interface StepSkills {
  readonly contexts: SkillContexts;
  /**
   * The with-skill context of `family`'s prompt now: what a paired validation's with-skill side carries.
   * SKILL0 composes the files its schedule keeps (general only once the family's own file is dropped,
   * nothing after the hard switch); the other curricula carry the full context.
   */
  current(family: string): Skill | undefined;
  /**
   * What a training rollout of `family` carries under `state`: the current context while the family is
   * active, nothing once it is retired. SKILL0's files decide for every family (a dropped family still gets
   * the general files), as its code does.
   */
  training(family: string, state: CurriculumState): Skill | undefined;
}

/** SKILL0's controller: the files of a family's with-skill prompt under its schedule. */
type SelectsFiles = CurriculumController & { withSkillFiles(family: string): string[] };

function selectsFiles(curriculum: CurriculumController): curriculum is SelectsFiles {
  return typeof (curriculum as Partial<SelectsFiles>).withSkillFiles === 'function';
}

/** The skills of a run: `contexts` from `skillContexts`, `skills` the same inventory, `curriculum` the run's. */
export function createStepSkills(
  contexts: SkillContexts,
  skills: readonly Skill[],
  curriculum: CurriculumController,
): StepSkills {
  const current = (family: string): Skill | undefined => {
    if (!selectsFiles(curriculum)) return contexts.full[family];
    if (contexts.files[family] === undefined) return undefined;
    return composeSkillContext(curriculum.withSkillFiles(family), skills);
  };
  return {
    contexts,
    current,
    training: (family, state) =>
      selectsFiles(curriculum) || state.active.includes(family) ? current(family) : undefined,
  };
}
