import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.config-problems');

/** One problem `skillrl check` found: where (a config path, or the component's role) and what is wrong. */
export interface ConfigProblem {
  where: string;
  message: string;
}

/**
 * `skillrl run` refused a config before anything started: every problem `skillrl check` finds in it (its
 * schema, each component, each combination), all at once, so one edit fixes each.
 */
export class ConfigProblemsError extends SkillrlError {
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[]) {
    const n = problems.length;
    super(
      'SKILLRL_CONFIG_PROBLEMS',
      `${file} has ${n} problem${n === 1 ? '' : 's'}; nothing ran (\`skillrl check ${file}\` lists the same):\n${problems
        .map((p) => `  - ${p.where}: ${p.message}`)
        .join('\n')}`,
    );
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'ConfigProblemsError';
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is ConfigProblemsError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
