import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import {
  findSkillFile,
  formatSkillProblem,
  InvalidArgumentError,
  readSkillText,
  SKILL_FILE_NAMES,
  type SkillProblem,
  validateSkillFolder,
} from '@skillrl/core';

export interface SkillPathValidation {
  /** The SKILL.md read. */
  path: string;
  name?: string;
  problems: SkillProblem[];
  warnings: string[];
}

export interface ValidateSkillPathOptions {
  /** Fields skills clients add (and missing referenced files) are warnings, not errors (core's `lenient`). */
  lenient?: boolean;
}

/**
 * Validates a skill folder (its SKILL.md, or skill.md) or a SKILL.md file with core's Agent Skills rules. A
 * skill is a folder holding SKILL.md: its `name` must match that folder's name (rule `name-directory`), and the
 * files its body references must be there (core's `validateSkillFolder`). A markdown file under another name is
 * checked as a skill text alone.
 */
export function validateSkillPath(
  target: string,
  options: ValidateSkillPathOptions = {},
): SkillPathValidation {
  const given = resolve(target);
  if (!existsSync(given)) throw new InvalidArgumentError('path', `${given} does not exist`);
  const isDir = statSync(given).isDirectory();
  const lenient = options.lenient === true ? { lenient: true } : {};
  if (isDir && findSkillFile(given) === undefined) {
    throw new InvalidArgumentError(
      'path',
      `${given} is a folder without a SKILL.md; a skill is a folder holding SKILL.md (or pass the file itself)`,
    );
  }
  // The skill's own file (not a sibling spelled the other way) names what was read.
  if (isDir || (SKILL_FILE_NAMES.includes(basename(given)) && findSkillFile(dirname(given)) === given)) {
    const result = validateSkillFolder(isDir ? given : dirname(given), lenient);
    return {
      path: result.path ?? given,
      ...(result.skill && typeof result.skill.name === 'string' ? { name: result.skill.name } : {}),
      problems: result.problems,
      warnings: result.warnings,
    };
  }
  const reading = readSkillText(readFileSync(given, 'utf8'), lenient);
  return {
    path: given,
    ...(reading.problems.length === 0 && reading.skill ? { name: reading.skill.name } : {}),
    problems: reading.problems,
    warnings: reading.problems.length === 0 ? reading.warningDetails.map(formatSkillProblem) : [],
  };
}
