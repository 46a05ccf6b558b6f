import type { Skill } from '../contracts/skill.js';
import type { SkillProblem } from '../errors/skill-format-error.js';
import { SkillFormatError } from '../errors/skill-format-error.js';
import { isToolName } from './allowed-tools.js';
import {
  codePointLength,
  invalidNameCharacters,
  isLowercaseName,
  normalizeSkillName,
  skillNamesMatch,
} from './skill-name.js';

/** Agent Skills limits (agentskills.io specification), in characters: Unicode code points, as skills-ref counts. */
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;
export const SKILL_COMPATIBILITY_MAX = 500;
/** Past this many body lines the format recommends splitting the skill; a warning, not an error. */
export const SKILL_BODY_WARN_LINES = 500;
/**
 * Past this many estimated tokens (see `estimateTokens`) the body is over the spec's "< 5000 tokens
 * recommended" for instructions; a warning, not an error.
 */
export const SKILL_BODY_WARN_TOKENS = 5000;
/** Where `Skill.families` lives inside the frontmatter `metadata` map. */
export const FAMILIES_METADATA_KEY = 'skillrl.families';
/** The frontmatter fields the Agent Skills spec defines (skills-ref's `ALLOWED_FIELDS`). */
export const SKILL_SPEC_FIELDS: readonly string[] = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
];

/**
 * Frontmatter fields skills clients add (Claude Code's, and the `version` many published skills carry). Named
 * in messages; in strict mode they are refused like any unknown field, in lenient mode kept with a warning.
 */
export const CLIENT_SKILL_FIELDS: readonly string[] = [
  'disable-model-invocation',
  'user-invocable',
  'argument-hint',
  'model',
  'effort',
  'context',
  'agent',
  'hooks',
  'version',
];

/**
 * A rough token count: one token per 4 characters (code points), rounded up. The usual rule of thumb for
 * English text with GPT- and Claude-style tokenizers; close enough for a recommendation, and dependency-free.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(codePointLength(text) / 4);
}

export interface ValidateSkillOptions {
  /**
   * The name of the folder that holds the SKILL.md. Agent Skills: `name` "must match the parent directory
   * name" (rule `name-directory`, both sides NFKC-normalised); checked only when given, since a skill in memory
   * has no folder.
   */
  directory?: string;
  /**
   * Accept what skills clients add beyond the spec: each field of `extraFields` is a warning (rule
   * `unknown-field`) instead of an error. Strict (the default) refuses them, as skills-ref does.
   */
  lenient?: boolean;
}

export interface SkillValidation {
  ok: boolean;
  problems: SkillProblem[];
  /** Each warning as one line, `[rule] field: message`. */
  warnings: string[];
  /** The same warnings with their rule ids, in the same order. */
  warningDetails: SkillProblem[];
}

/** `[rule] field: message`, the line a warning is reported as. */
export function formatSkillProblem(p: SkillProblem): string {
  return `[${p.rule}] ${p.field}: ${p.message}`;
}

function checkName(name: unknown, problems: SkillProblem[]): void {
  if (typeof name !== 'string' || name.trim().length === 0) {
    problems.push({ rule: 'name-required', field: 'name', message: 'a non-empty name is required' });
    return;
  }
  const normalized = normalizeSkillName(name);
  const length = codePointLength(normalized);
  if (length > SKILL_NAME_MAX) {
    problems.push({
      rule: 'name-length',
      field: 'name',
      message: `must be at most ${SKILL_NAME_MAX} characters (got ${length})`,
    });
  }
  const bad = invalidNameCharacters(normalized);
  const upper = !isLowercaseName(normalized);
  if (bad.length > 0 || upper) {
    const why = [
      upper ? 'must be lowercase' : '',
      bad.length > 0
        ? `has characters that are not letters, digits or hyphens (${bad.map((c) => JSON.stringify(c)).join(', ')})`
        : '',
    ]
      .filter(Boolean)
      .join(' and ');
    problems.push({
      rule: 'name-charset',
      field: 'name',
      message: `"${name}" ${why}: it may contain only lowercase letters, digits and hyphens`,
    });
  }
  if (normalized.startsWith('-') || normalized.endsWith('-') || normalized.includes('--')) {
    problems.push({
      rule: 'name-hyphens',
      field: 'name',
      message: `"${name}" must not start or end with a hyphen or contain two hyphens in a row`,
    });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkExtraFields(
  skill: Skill,
  lenient: boolean,
  problems: SkillProblem[],
  warnings: SkillProblem[],
) {
  if (skill.extraFields === undefined) return;
  if (!isPlainObject(skill.extraFields)) {
    problems.push({
      rule: 'unknown-field',
      field: 'extraFields',
      message: 'must be a map of field names to values',
    });
    return;
  }
  for (const field of Object.keys(skill.extraFields)) {
    if (SKILL_SPEC_FIELDS.includes(field)) {
      problems.push({
        rule: 'unknown-field',
        field,
        message: 'is an Agent Skills field; set it on the skill, not in `extraFields`',
      });
      continue;
    }
    const client = CLIENT_SKILL_FIELDS.includes(field) ? 'a skills-client field, ' : '';
    if (lenient) {
      warnings.push({
        rule: 'unknown-field',
        field,
        message: `is ${client}not an Agent Skills frontmatter field; kept as it is (lenient)`,
      });
    } else {
      problems.push({
        rule: 'unknown-field',
        field,
        message: `is ${client}not an Agent Skills frontmatter field; move it under \`metadata\`, or read the skill with \`lenient: true\` to keep it (allowed: ${SKILL_SPEC_FIELDS.join(', ')})`,
      });
    }
  }
}

/** Checks a skill against the Agent Skills rules. Never throws; see `assertValidSkill`. */
export function validateSkill(skill: Skill, options: ValidateSkillOptions = {}): SkillValidation {
  const problems: SkillProblem[] = [];
  const warningDetails: SkillProblem[] = [];
  const done = (): SkillValidation => ({
    ok: problems.length === 0,
    problems,
    warnings: warningDetails.map(formatSkillProblem),
    warningDetails,
  });
  if (typeof skill !== 'object' || skill === null) {
    problems.push({ rule: 'frontmatter', field: '(skill)', message: 'expected a skill object' });
    return done();
  }
  checkName(skill.name, problems);
  if (
    options.directory !== undefined &&
    typeof skill.name === 'string' &&
    skill.name.trim().length > 0 &&
    !skillNamesMatch(skill.name, options.directory)
  ) {
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
  } else if (codePointLength(skill.description) > SKILL_DESCRIPTION_MAX) {
    problems.push({
      rule: 'description-length',
      field: 'description',
      message: `must be at most ${SKILL_DESCRIPTION_MAX} characters (got ${codePointLength(skill.description)})`,
    });
  }
  if (skill.license !== undefined && typeof skill.license !== 'string') {
    problems.push({ rule: 'license-type', field: 'license', message: 'must be a string' });
  }
  if (skill.compatibility !== undefined) {
    if (typeof skill.compatibility !== 'string') {
      problems.push({ rule: 'compatibility-length', field: 'compatibility', message: 'must be a string' });
    } else {
      const length = codePointLength(skill.compatibility);
      if (length === 0 || length > SKILL_COMPATIBILITY_MAX) {
        problems.push({
          rule: 'compatibility-length',
          field: 'compatibility',
          message: `must be 1–${SKILL_COMPATIBILITY_MAX} characters (got ${length})`,
        });
      }
    }
  }
  if (skill.metadata !== undefined) {
    if (!isPlainObject(skill.metadata)) {
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
            message: `must be a string (got ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a map' : typeof value})`,
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
    if (!Array.isArray(skill.allowedTools) || !skill.allowedTools.every(isToolName)) {
      problems.push({
        rule: 'allowed-tools-type',
        field: 'allowed-tools',
        message:
          'must be a list of tool names, each without spaces or commas outside parentheses (`Read`, `Bash(git add:*)`)',
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
  checkExtraFields(skill, options.lenient === true, problems, warningDetails);
  if (typeof skill.body !== 'string') {
    problems.push({ rule: 'body-type', field: 'body', message: 'must be a string of markdown' });
  } else {
    const lines = skill.body.split('\n').length;
    if (lines > SKILL_BODY_WARN_LINES) {
      warningDetails.push({
        rule: 'body-lines',
        field: 'body',
        message: `has ${lines} lines; the Agent Skills format recommends at most ${SKILL_BODY_WARN_LINES} (move detail into referenced files)`,
      });
    }
    const tokens = estimateTokens(skill.body);
    if (tokens > SKILL_BODY_WARN_TOKENS) {
      warningDetails.push({
        rule: 'body-tokens',
        field: 'body',
        message: `is about ${tokens} tokens (characters / 4); the Agent Skills format recommends under ${SKILL_BODY_WARN_TOKENS} (move detail into referenced files)`,
      });
    }
  }
  return done();
}

/** Throws a `SkillFormatError` listing every broken rule. */
export function assertValidSkill(skill: Skill, source?: string, options: ValidateSkillOptions = {}): void {
  const result = validateSkill(skill, options);
  if (!result.ok) throw new SkillFormatError(result.problems, source ? { source } : {});
}
