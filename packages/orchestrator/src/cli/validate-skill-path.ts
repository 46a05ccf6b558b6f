import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  InvalidArgumentError,
  parseSkill,
  SkillFormatError,
  type SkillProblem,
  validateSkill,
} from '@skillrl/core';

export interface SkillPathValidation {
  /** The SKILL.md read. */
  path: string;
  name?: string;
  problems: SkillProblem[];
  warnings: string[];
}

/**
 * Validates a skill folder (its SKILL.md) or a SKILL.md file with core's Agent Skills rules. A skill is a
 * folder holding SKILL.md, and its `name` must match that folder's name (rule `name-directory`); a markdown
 * file under another name is checked as a skill text alone.
 */
export function validateSkillPath(target: string): SkillPathValidation {
  const given = resolve(target);
  if (!existsSync(given)) throw new InvalidArgumentError('path', `${given} does not exist`);
  const isDir = statSync(given).isDirectory();
  const path = isDir ? join(given, 'SKILL.md') : given;
  if (isDir && !existsSync(path)) {
    throw new InvalidArgumentError(
      'path',
      `${given} is a folder without a SKILL.md; a skill is a folder holding SKILL.md (or pass the file itself)`,
    );
  }
  const folder = isDir || basename(path) === 'SKILL.md' ? basename(dirname(path)) : undefined;
  const warnings: string[] = [];
  try {
    const skill = parseSkill(readFileSync(path, 'utf8'), {
      source: path,
      onWarning: (m) => warnings.push(m),
    });
    const result = validateSkill(skill, folder === undefined ? {} : { directory: folder });
    return { path, name: skill.name, problems: result.problems, warnings: [...warnings, ...result.warnings] };
  } catch (error) {
    if (!SkillFormatError.isInstance(error)) throw error;
    return { path, problems: error.problems, warnings };
  }
}
