import type { Skill } from '../contracts/skill.js';
import type { SkillProblem } from '../errors/skill-format-error.js';
import { SkillFormatError } from '../errors/skill-format-error.js';

/** Agent Skills limits (agentskills.io specification). */
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;
export const SKILL_COMPATIBILITY_MAX = 500;
/** Past this many body lines the format recommends splitting the skill; a warning, not an error. */
export const SKILL_BODY_WARN_LINES = 500;
/** Where `Skill.families` lives inside the frontmatter `metadata` map. */
export const FAMILIES_METADATA_KEY = 'skillrl.families';

export interface ValidateSkillOptions {
  /**
   * The name of the folder that holds the SKILL.md. Agent Skills: `name` "must match the parent directory
   * name" (rule `name-directory`); checked only when given, since a skill in memory has no folder.
   */
  directory?: string;
}

export interface SkillValidation {
  ok: boolean;
  problems: SkillProblem[];
  warnings: string[];
}

function checkName(name: unknown, problems: SkillProblem[]): void {
  if (typeof name !== 'string' || name.length === 0) {
    problems.push({ rule: 'name-required', field: 'name', message: 'a non-empty name is required' });
    return;
  }
  if (name.length > SKILL_NAME_MAX) {
    problems.push({
      rule: 'name-length',
      field: 'name',
      message: `must be at most ${SKILL_NAME_MAX} characters (got ${name.length})`,
    });
  }
  if (!/^[a-z0-9-]+$/.test(name)) {
    problems.push({
      rule: 'name-charset',
      field: 'name',
      message: `"${name}" may contain only lowercase letters, digits and hyphens`,
    });
  }
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) {
    problems.push({
      rule: 'name-hyphens',
      field: 'name',
      message: `"${name}" must not start or end with a hyphen or contain two hyphens in a row`,
    });
  }
}

/** Checks a skill against the Agent Skills rules. Never throws; see `assertValidSkill`. */
export function validateSkill(skill: Skill, options: ValidateSkillOptions = {}): SkillValidation {
  const problems: SkillProblem[] = [];
  const warnings: string[] = [];
  if (typeof skill !== 'object' || skill === null) {
    return {
      ok: false,
      problems: [{ rule: 'frontmatter', field: '(skill)', message: 'expected a skill object' }],
      warnings,
    };
  }
  checkName(skill.name, problems);
  if (options.directory !== undefined && typeof skill.name === 'string' && skill.name !== options.directory) {
    problems.push({
      rule: 'name-directory',
      field: 'name',
      message: `"${skill.name}" must match the name of the folder that holds the SKILL.md ("${options.directory}"); rename one of them`,
    });
  }
  if (typeof skill.description !== 'string' || skill.description.trim().length === 0) {
    problems.push({
      rule: 'description-required',
      field: 'description',
      message: 'a non-empty description is required (what the skill does and when to use it)',
    });
  } else if (skill.description.length > SKILL_DESCRIPTION_MAX) {
    problems.push({
      rule: 'description-length',
      field: 'description',
      message: `must be at most ${SKILL_DESCRIPTION_MAX} characters (got ${skill.description.length})`,
    });
  }
  if (skill.license !== undefined && typeof skill.license !== 'string') {
    problems.push({ rule: 'license-type', field: 'license', message: 'must be a string' });
  }
  if (skill.compatibility !== undefined) {
    if (typeof skill.compatibility !== 'string') {
      problems.push({ rule: 'compatibility-length', field: 'compatibility', message: 'must be a string' });
    } else if (skill.compatibility.length === 0 || skill.compatibility.length > SKILL_COMPATIBILITY_MAX) {
      problems.push({
        rule: 'compatibility-length',
        field: 'compatibility',
        message: `must be 1–${SKILL_COMPATIBILITY_MAX} characters (got ${skill.compatibility.length})`,
      });
    }
  }
  if (skill.metadata !== undefined) {
    if (typeof skill.metadata !== 'object' || skill.metadata === null || Array.isArray(skill.metadata)) {
      problems.push({
        rule: 'metadata-type',
        field: 'metadata',
        message: 'must be a map of string keys to string values',
      });
    } else {
      for (const [key, value] of Object.entries(skill.metadata)) {
        if (typeof value !== 'string') {
          problems.push({
            rule: 'metadata-type',
            field: `metadata.${key}`,
            message: `must be a string (got ${Array.isArray(value) ? 'array' : typeof value}); quote it`,
          });
        }
      }
      if (skill.families !== undefined && FAMILIES_METADATA_KEY in skill.metadata) {
        problems.push({
          rule: 'families-type',
          field: `metadata.${FAMILIES_METADATA_KEY}`,
          message: 'is reserved for `families`; set one or the other',
        });
      }
    }
  }
  if (skill.allowedTools !== undefined) {
    if (
      !Array.isArray(skill.allowedTools) ||
      skill.allowedTools.some((t) => typeof t !== 'string' || !/^\S+$/.test(t))
    ) {
      problems.push({
        rule: 'allowed-tools-type',
        field: 'allowed-tools',
        message: 'must be a list of tool names without spaces',
      });
    }
  }
  if (skill.families !== undefined) {
    if (
      !Array.isArray(skill.families) ||
      skill.families.some((f) => typeof f !== 'string' || !/^\S+$/.test(f))
    ) {
      problems.push({
        rule: 'families-type',
        field: 'families',
        message: 'must be a list of family names without spaces',
      });
    }
  }
  if (typeof skill.body !== 'string') {
    problems.push({ rule: 'body-type', field: 'body', message: 'must be a string of markdown' });
  } else {
    const lines = skill.body.split('\n').length;
    if (lines > SKILL_BODY_WARN_LINES) {
      warnings.push(
        `body has ${lines} lines; the Agent Skills format recommends at most ${SKILL_BODY_WARN_LINES} (move detail into referenced files)`,
      );
    }
  }
  return { ok: problems.length === 0, problems, warnings };
}

/** Throws a `SkillFormatError` listing every broken rule. */
export function assertValidSkill(skill: Skill, source?: string): void {
  const result = validateSkill(skill);
  if (!result.ok) throw new SkillFormatError(result.problems, source ? { source } : {});
}
