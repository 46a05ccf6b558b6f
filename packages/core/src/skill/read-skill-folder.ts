import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Skill } from '../contracts/skill.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { SkillFormatError } from '../errors/skill-format-error.js';
import { parseSkill } from './parse-skill.js';

/**
 * The skills of an Agent Skills folder, as a skills client finds them: `path` is a `SKILL.md` file, a skill's
 * folder (`<name>/SKILL.md`), or a folder of skill folders (`<path>/<name>/SKILL.md`, sorted by name). Each
 * skill's `name` must be its folder's name (the Agent Skills rule). `field` names the config field in errors.
 */
export function readSkillFolder(path: string, field = 'path'): Skill[] {
  const at = resolve(path);
  if (!existsSync(at)) throw new InvalidArgumentError(field, `${at} does not exist`);
  const files: string[] = [];
  if (statSync(at).isFile()) files.push(at);
  else if (existsSync(join(at, 'SKILL.md'))) files.push(join(at, 'SKILL.md'));
  else {
    for (const entry of readdirSync(at).sort()) {
      const file = join(at, entry, 'SKILL.md');
      if (existsSync(file)) files.push(file);
    }
  }
  if (files.length === 0) {
    throw new InvalidArgumentError(
      field,
      `${at} holds no SKILL.md: give a SKILL.md, a skill's folder (<name>/SKILL.md) or a folder of them`,
    );
  }
  return files.map((file) => {
    const skill = parseSkill(readFileSync(file, 'utf8'), { source: file });
    const folder = basename(dirname(file));
    if (basename(file) === 'SKILL.md' && folder !== skill.name) {
      throw new SkillFormatError(
        [
          {
            rule: 'name-directory',
            field: 'name',
            message: `"${skill.name}" must be the name of its folder ("${folder}"): rename one of them`,
          },
        ],
        { source: file },
      );
    }
    return skill;
  });
}
