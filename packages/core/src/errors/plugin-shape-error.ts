import { SkillrlError } from './skillrl-error.js';

const SYMBOL = Symbol.for('skillrl.error.plugin-shape');

/**
 * A plugin package loaded, but the export a config uses is not the component it should be: it names the
 * package, the export, what was expected (`TaskAdapter: missing load()`) and every export found.
 */
export class PluginShapeError extends SkillrlError {
  readonly packageName: string;
  readonly exportName: string;
  readonly expected: string;
  /** `name (type)` of each export of the module, as the orchestrator saw them. */
  readonly found: string[];

  constructor(
    what: string,
    packageName: string,
    exportName: string,
    expected: string,
    found: string[],
    options: { cause?: unknown; hint?: string } = {},
  ) {
    super(
      'SKILLRL_PLUGIN_SHAPE',
      `${what}: export "${exportName}" of "${packageName}" is not a ${expected}. The module exports: ${
        found.length > 0 ? found.join(', ') : '(nothing)'
      }. ${options.hint ?? 'Name the export to use with "export" in the config, or fix the package.'}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'PluginShapeError';
    this.packageName = packageName;
    this.exportName = exportName;
    this.expected = expected;
    this.found = found;
  }

  static override isInstance(error: unknown): error is PluginShapeError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
