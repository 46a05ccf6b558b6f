import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.skill-format');

/** The Agent Skills rule a SKILL.md broke. */
export type SkillRule =
  | 'frontmatter'
  | 'yaml'
  | 'name-required'
  | 'name-length'
  | 'name-charset'
  | 'name-hyphens'
  | 'name-directory'
  | 'description-required'
  | 'description-length'
  | 'compatibility-length'
  | 'metadata-type'
  | 'allowed-tools-type'
  | 'license-type'
  | 'unknown-field'
  | 'families-type'
  | 'body-type';

export interface SkillProblem {
  rule: SkillRule;
  field: string;
  message: string;
}

/** A SKILL.md could not be parsed, or a skill breaks the Agent Skills rules. */
export class SkillFormatError extends SkillrlError {
  readonly problems: SkillProblem[];

  constructor(problems: SkillProblem[], options: { source?: string; cause?: unknown } = {}) {
    const where = options.source ? ` in ${options.source}` : '';
    const lines = problems.map((p) => `  - [${p.rule}] ${p.field}: ${p.message}`).join('\n');
    super('SKILLRL_SKILL_FORMAT', `Invalid SKILL.md${where}:\n${lines}`, options);
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'SkillFormatError';
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is SkillFormatError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
