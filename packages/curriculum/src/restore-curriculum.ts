import { InvalidArgumentError } from '@skillrl/core';
import {
  restoreSkill0Curriculum,
  type Skill0Curriculum,
  type Skill0CurriculumJSON,
} from './skill0-curriculum.js';
import {
  restoreSkillcCurriculum,
  type SkillcCurriculum,
  type SkillcCurriculumJSON,
} from './skillc-curriculum.js';
import {
  restoreStaticCurriculum,
  type StaticCurriculum,
  type StaticCurriculumJSON,
} from './static-curriculum.js';

export type CurriculumJSON = SkillcCurriculumJSON | Skill0CurriculumJSON | StaticCurriculumJSON;
export type AnyCurriculum = SkillcCurriculum | Skill0Curriculum | StaticCurriculum;

/** Restores any curriculum from its `toJSON()` output (a checkpoint), by its `kind`. */
export function restoreCurriculum(json: CurriculumJSON): AnyCurriculum {
  switch (json?.kind) {
    case 'skillc':
      return restoreSkillcCurriculum(json);
    case 'skill0':
      return restoreSkill0Curriculum(json);
    case 'static':
      return restoreStaticCurriculum(json);
    default:
      throw new InvalidArgumentError(
        'curriculum JSON',
        `unknown kind ${JSON.stringify((json as { kind?: unknown })?.kind)}; expected "skillc", "skill0" or "static"`,
      );
  }
}
