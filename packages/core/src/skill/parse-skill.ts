import { parse as parseYaml } from 'yaml';
import type { Skill } from '../contracts/skill.js';
import { SkillFormatError, type SkillProblem } from '../errors/skill-format-error.js';
import { FAMILIES_METADATA_KEY, validateSkill } from './validate-skill.js';

const KNOWN_FIELDS = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
]);

export interface ParseSkillOptions {
  /** Names the file in error messages. */
  source?: string;
  /** Receives non-fatal findings (an overlong body). */
  onWarning?: (message: string) => void;
}

/** Splits `---\n<yaml>\n---\n<body>`; the body is kept byte for byte. */
function splitFrontmatter(text: string, source?: string): { yaml: string; body: string } {
  const open = /^---\r?\n/.exec(text);
  if (!open) {
    throw new SkillFormatError(
      [
        {
          rule: 'frontmatter',
          field: '(file)',
          message: 'must start with a `---` line opening the YAML frontmatter',
        },
      ],
      source ? { source } : {},
    );
  }
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!close) {
    throw new SkillFormatError(
      [{ rule: 'frontmatter', field: '(file)', message: 'the frontmatter has no closing `---` line' }],
      source ? { source } : {},
    );
  }
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) };
}

/** Parses a SKILL.md. Throws `SkillFormatError` naming every broken rule. */
export function parseSkill(text: string, options: ParseSkillOptions = {}): Skill {
  const { source } = options;
  const errOptions = source ? { source } : {};
  if (typeof text !== 'string') {
    throw new SkillFormatError(
      [{ rule: 'frontmatter', field: '(file)', message: 'expected the SKILL.md text' }],
      errOptions,
    );
  }
  const { yaml, body } = splitFrontmatter(text, source);
  let data: unknown;
  try {
    data = parseYaml(yaml, { uniqueKeys: true, prettyErrors: true });
  } catch (cause) {
    throw new SkillFormatError(
      [
        {
          rule: 'yaml',
          field: '(frontmatter)',
          message: (cause as Error).message.split('\n')[0] ?? 'invalid YAML',
        },
      ],
      { ...errOptions, cause },
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SkillFormatError(
      [
        {
          rule: 'frontmatter',
          field: '(frontmatter)',
          message: 'must be a YAML mapping with name and description',
        },
      ],
      errOptions,
    );
  }
  const fm = data as Record<string, unknown>;
  const unknownFields: SkillProblem[] = Object.keys(fm)
    .filter((k) => !KNOWN_FIELDS.has(k))
    .map((field) => ({
      rule: 'unknown-field' as const,
      field,
      message: `is not an Agent Skills frontmatter field; move it under \`metadata\` (allowed: ${[...KNOWN_FIELDS].join(', ')})`,
    }));
  const skill: Skill = { name: fm.name as string, description: fm.description as string, body };
  if (fm.license !== undefined) skill.license = fm.license as string;
  if (fm.compatibility !== undefined) skill.compatibility = fm.compatibility as string;
  if (fm['allowed-tools'] !== undefined) {
    const tools = fm['allowed-tools'];
    skill.allowedTools = (typeof tools === 'string' ? tools.split(/\s+/).filter(Boolean) : tools) as string[];
  }
  if (fm.metadata !== undefined) {
    const metadata = fm.metadata as Record<string, string>;
    if (metadata && typeof metadata === 'object' && !Array.isArray(metadata)) {
      const { [FAMILIES_METADATA_KEY]: families, ...rest } = metadata;
      if (families !== undefined) {
        skill.families =
          typeof families === 'string' ? families.split(/\s+/).filter(Boolean) : (families as never);
      }
      if (Object.keys(rest).length > 0) skill.metadata = rest;
    } else {
      skill.metadata = metadata;
    }
  }
  const result = validateSkill(skill);
  const problems = [...unknownFields, ...result.problems];
  if (problems.length > 0) throw new SkillFormatError(problems, errOptions);
  for (const warning of result.warnings) options.onWarning?.(warning);
  return skill;
}
