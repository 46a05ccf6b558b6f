import { formatSkill, readSkillFolder, type Skill } from '@skillrl/core';
import { createTwoFilesPatch } from 'diff';
import { PROVENANCE_PREFIX, withoutProvenance } from './run-skill-versions.js';

export interface SkillDiff {
  a: string;
  b: string;
  /** The skills' text (provenance left out) as a unified diff; empty when they say the same. */
  text: string;
  /** Provenance fields (skillrl's metadata) that differ: [field, a's value, b's value]. */
  provenance: [string, string | undefined, string | undefined][];
  same: boolean;
}

function one(path: string, field: string): Skill {
  const skills = readSkillFolder(path, field);
  if (skills.length !== 1) {
    throw new Error(`${path} holds ${skills.length} skills: give one skill's folder or SKILL.md`);
  }
  return skills[0] as Skill;
}

/** Two skills compared: their text as a unified diff, and their provenance (hash, parent, run, utility...). */
export function diffSkills(a: string, b: string): SkillDiff {
  const left = one(a, 'a');
  const right = one(b, 'b');
  const text = createTwoFilesPatch(
    a,
    b,
    formatSkill(withoutProvenance(left)),
    formatSkill(withoutProvenance(right)),
    undefined,
    undefined,
    { context: 3 },
  );
  const changed = !text.split('\n').some((l) => l.startsWith('@@')) ? '' : text;
  const keys = new Set(
    [...Object.keys(left.metadata ?? {}), ...Object.keys(right.metadata ?? {})].filter((k) =>
      k.startsWith(PROVENANCE_PREFIX),
    ),
  );
  const provenance: SkillDiff['provenance'] = [...keys]
    .sort()
    .map(
      (k) => [k, left.metadata?.[k], right.metadata?.[k]] as [string, string | undefined, string | undefined],
    )
    .filter(([, x, y]) => x !== y);
  return { a, b, text: changed, provenance, same: changed === '' };
}
