import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.skill-format');

/**
 * The Agent Skills rule a SKILL.md broke (or, for a warning, is advised to follow). Errors: `frontmatter`
 * through `body-type`, `skill-file` and `reference-missing` (a warning in lenient mode). Warnings only:
 * `allowed-tools-format`, `body-lines`, `body-tokens`, `reference-depth`, `layout`; `unknown-field` is a
 * warning in lenient mode.
 */
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
  | 'body-type'
  /** A skill folder holds no `SKILL.md` (or `skill.md`), or the path is not a folder. */
  | 'skill-file'
  /** `allowed-tools` given as a comma-separated string or a YAML list instead of a space-separated string. */
  | 'allowed-tools-format'
  /** The body is past the recommended 500 lines. */
  | 'body-lines'
  /** The body is past the recommended 5000 tokens (estimated). */
  | 'body-tokens'
  /** A file the body references does not exist in the skill folder. */
  | 'reference-missing'
  /** A file the body references is more than one level deep, or outside the skill folder. */
  | 'reference-depth'
  /** A top-level entry of the skill folder outside the `scripts/`, `references/`, `assets/` layout. */
  | 'layout';

/** One broken rule (or one warning): its rule id, the field or file it concerns, and what to do. */
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
