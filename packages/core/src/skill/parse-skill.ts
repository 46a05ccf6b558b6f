import { parse as parseYaml } from 'yaml';
import type { Skill, SkillFieldValue } from '../contracts/skill.js';
import { SkillFormatError, type SkillProblem } from '../errors/skill-format-error.js';
import { splitAllowedTools } from './allowed-tools.js';
import {
  FAMILIES_METADATA_KEY,
  formatSkillProblem,
  SKILL_SPEC_FIELDS,
  type ValidateSkillOptions,
  validateSkill,
} from './validate-skill.js';

export interface ParseSkillOptions {
  /** Names the file in error messages. */
  source?: string;
  /**
   * Receives non-fatal findings (an overlong body, a comma-separated `allowed-tools`, and in lenient mode each
   * field outside the spec), each as a `[rule] field: message` line and as a `SkillProblem`.
   */
  onWarning?: (message: string, detail: SkillProblem) => void;
  /**
   * Read what skills clients write beyond the spec: a frontmatter field outside the spec
   * (`disable-model-invocation`, `argument-hint`, `version`, …) is a warning instead of an error, and is kept
   * in `skill.extraFields` (its YAML value read as strings) so `formatSkill` writes it back.
   */
  lenient?: boolean;
}

/** What reading a SKILL.md text found: the skill (when the frontmatter is a mapping), every problem, every warning. */
export interface SkillTextReading {
  skill?: Skill;
  problems: SkillProblem[];
  warningDetails: SkillProblem[];
  /** The YAML error, when the frontmatter is not YAML. */
  cause?: unknown;
}

/** Splits `---\n<yaml>\n---\n<body>`; the body is kept byte for byte. */
function splitFrontmatter(text: string): { yaml: string; body: string } | SkillProblem {
  const open = /^---\r?\n/.exec(text);
  if (!open) {
    return {
      rule: 'frontmatter',
      field: '(file)',
      message: 'must start with a `---` line opening the YAML frontmatter',
    };
  }
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!close) {
    return { rule: 'frontmatter', field: '(file)', message: 'the frontmatter has no closing `---` line' };
  }
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) };
}

function isMap(value: unknown): value is Record<string, SkillFieldValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a SKILL.md text without throwing. The YAML is read with the failsafe schema, so every scalar is the
 * string written (`name: 123` is "123", `version: 1.0` is "1.0", `enabled: true` is "true"), as skills-ref's
 * strictyaml reads it.
 */
export function readSkillText(text: string, options: ValidateSkillOptions = {}): SkillTextReading {
  const problems: SkillProblem[] = [];
  const warningDetails: SkillProblem[] = [];
  if (typeof text !== 'string') {
    problems.push({ rule: 'frontmatter', field: '(file)', message: 'expected the SKILL.md text' });
    return { problems, warningDetails };
  }
  const split = splitFrontmatter(text);
  if ('rule' in split) return { problems: [split], warningDetails };
  const { yaml, body } = split;
  let data: unknown;
  try {
    data = parseYaml(yaml, { schema: 'failsafe', uniqueKeys: true, prettyErrors: true, logLevel: 'error' });
  } catch (cause) {
    const message = (cause as Error).message.split('\n')[0] ?? 'invalid YAML';
    return { problems: [{ rule: 'yaml', field: '(frontmatter)', message }], warningDetails, cause };
  }
  if (!isMap(data)) {
    problems.push({
      rule: 'frontmatter',
      field: '(frontmatter)',
      message: 'must be a YAML mapping with name and description',
    });
    return { problems, warningDetails };
  }
  const fm = data;
  const skill: Skill = { name: fm.name as string, description: fm.description as string, body };
  if (fm.license !== undefined) skill.license = fm.license as string;
  if (fm.compatibility !== undefined) skill.compatibility = fm.compatibility as string;
  const tools = fm['allowed-tools'];
  if (typeof tools === 'string') {
    const { tools: list, commaSeparated } = splitAllowedTools(tools);
    skill.allowedTools = list;
    if (commaSeparated) {
      warningDetails.push({
        rule: 'allowed-tools-format',
        field: 'allowed-tools',
        message: `is comma-separated ("${tools}"); the spec's form is space-separated ("${list.join(' ')}"), which formatSkill writes`,
      });
    }
  } else if (Array.isArray(tools)) {
    skill.allowedTools = tools as string[];
    warningDetails.push({
      rule: 'allowed-tools-format',
      field: 'allowed-tools',
      message: "is a YAML list; the spec's form is a space-separated string, which formatSkill writes",
    });
  } else if (tools !== undefined) {
    skill.allowedTools = tools as never;
  }
  const metadata = fm.metadata;
  // `metadata:` with no value is an empty map, the same as none.
  if (isMap(metadata)) {
    const { [FAMILIES_METADATA_KEY]: families, ...rest } = metadata;
    if (families !== undefined) {
      skill.families =
        typeof families === 'string' ? families.split(/\s+/).filter(Boolean) : (families as never);
    }
    if (Object.keys(rest).length > 0) skill.metadata = rest as Record<string, string>;
  } else if (metadata !== undefined && metadata !== '') {
    skill.metadata = metadata as never;
  }
  const extra = Object.keys(fm).filter((k) => !SKILL_SPEC_FIELDS.includes(k));
  if (extra.length > 0)
    skill.extraFields = Object.fromEntries(extra.map((k) => [k, fm[k] as SkillFieldValue]));
  const result = validateSkill(skill, options);
  return {
    skill,
    problems: [...problems, ...result.problems],
    warningDetails: [...warningDetails, ...result.warningDetails],
  };
}

/**
 * Parses a SKILL.md. Throws `SkillFormatError` naming every broken rule. Every YAML scalar is read as the
 * string written (see `readSkillText`).
 */
export function parseSkill(text: string, options: ParseSkillOptions = {}): Skill {
  const { source } = options;
  const reading = readSkillText(text, options.lenient ? { lenient: true } : {});
  if (reading.problems.length > 0 || reading.skill === undefined) {
    throw new SkillFormatError(reading.problems, {
      ...(source ? { source } : {}),
      ...(reading.cause !== undefined ? { cause: reading.cause } : {}),
    });
  }
  for (const w of reading.warningDetails) options.onWarning?.(formatSkillProblem(w), w);
  return reading.skill;
}
