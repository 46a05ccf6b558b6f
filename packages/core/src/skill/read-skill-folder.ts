import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Skill } from '../contracts/skill.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { SkillFormatError, type SkillProblem } from '../errors/skill-format-error.js';
import { parseSkill } from './parse-skill.js';
import { skillNamesMatch } from './skill-name.js';
import { findSkillFile, SKILL_FILE_NAMES } from './validate-skill-folder.js';

export interface ReadSkillFolderOptions {
  /** Read client fields outside the spec as warnings, kept in `skill.extraFields` (see `parseSkill`). */
  lenient?: boolean;
  /** Receives each warning, with the SKILL.md it is about. */
  onWarning?: (message: string, detail: SkillProblem & { source: string }) => void;
}

/**
 * The skills of an Agent Skills folder, as a skills client finds them: `path` is a `SKILL.md` (or `skill.md`)
 * file, a skill's folder (`<name>/SKILL.md`), or a folder of skill folders (`<path>/<name>/SKILL.md`, sorted by
 * name). Each skill's `name` must be its folder's name after NFKC (the Agent Skills rule). `field` names the
 * config field in errors.
 */
export function readSkillFolder(path: string, field = 'path', options: ReadSkillFolderOptions = {}): Skill[] {
  const at = resolve(path);
  if (!existsSync(at)) throw new InvalidArgumentError(field, `${at} does not exist`);
  const files: string[] = [];
  if (statSync(at).isFile()) files.push(at);
  else {
    const own = findSkillFile(at);
    if (own !== undefined) files.push(own);
    else {
      for (const entry of readdirSync(at).sort()) {
        const file = statSync(join(at, entry)).isDirectory() ? findSkillFile(join(at, entry)) : undefined;
        if (file !== undefined) files.push(file);
      }
    }
  }
  if (files.length === 0) {
    throw new InvalidArgumentError(
      field,
      `${at} holds no SKILL.md: give a SKILL.md, a skill's folder (<name>/SKILL.md) or a folder of them`,
    );
  }
  return files.map((file) => {
    const skill = parseSkill(readFileSync(file, 'utf8'), {
      source: file,
      ...(options.lenient ? { lenient: true } : {}),
      onWarning: (message, detail) => options.onWarning?.(message, { ...detail, source: file }),
    });
    const folder = basename(dirname(file));
    if (SKILL_FILE_NAMES.includes(basename(file)) && !skillNamesMatch(skill.name, folder)) {
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
