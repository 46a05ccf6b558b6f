import type { EstimatorBatchOverrides, MethodBatchField, RunConfig, ValidationIssue } from '@skillrl/core';
import { ValidationError } from '@skillrl/core';
import { importBuiltin } from '../components/import-package.js';

const UNIT: Record<RunConfig['method'], string> = { internalize: 'step', evolve: 'generation' };

/**
 * The batch fields the method's step fills on every estimate, as the step's package declares them (SKILLC's
 * step in curriculum, Skill-R1's generation in skill-generator, loaded as the run loads them).
 */
export async function methodBatchFields(
  method: RunConfig['method'],
  configPath?: string,
): Promise<readonly MethodBatchField[]> {
  if (method === 'evolve') {
    const mod = await importBuiltin(
      '@skillrl/skill-generator/generation',
      "Skill-R1's generation step",
      configPath,
    );
    return mod.SKILL_R1_GENERATION_BATCH_FIELDS as readonly MethodBatchField[];
  }
  const mod = await importBuiltin('@skillrl/curriculum', 'the curriculum', configPath);
  return mod.SKILLC_STEP_BATCH_FIELDS as readonly MethodBatchField[];
}

/**
 * An estimator's declared overrides (`factory.batchOverrides`) as read from a module: a record of string
 * lists, anything else ignored (a package may set the property to anything; only this shape means something).
 */
export function readBatchOverrides(value: unknown): EstimatorBatchOverrides {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, readonly string[]> = {};
  for (const [field, options] of Object.entries(value)) {
    if (Array.isArray(options)) out[field] = options.filter((o): o is string => typeof o === 'string');
  }
  return out as EstimatorBatchOverrides;
}

/**
 * The estimator options a config sets that the run will override: the estimator declares, per batch field,
 * the options it replaces (`batchOverrides`), and the method's step fills `fields` on every estimate (as its
 * package declares them: `methodBatchFields`), so such an option would do nothing. One issue per option,
 * naming it, the field that replaces it and where the run's values come from. No estimator is named here: a package's estimator that
 * declares its overrides is checked the same way.
 */
export function checkEstimatorOverrides(
  config: Pick<RunConfig, 'method' | 'estimator' | 'evolve'>,
  overrides: EstimatorBatchOverrides,
  fields: readonly MethodBatchField[],
): ValidationIssue[] {
  const spec = config.estimator;
  if (spec === undefined || typeof spec === 'string' || !spec.options) return [];
  // `no-skill` proposes nothing and never calls the estimator.
  if (config.method === 'evolve' && config.evolve?.variant === 'no-skill') return [];
  const estimator = spec.name ?? spec.package ?? 'the estimator';
  const issues: ValidationIssue[] = [];
  for (const option of Object.keys(spec.options)) {
    const filled = fields.find((f) => overrides[f.field]?.includes(option));
    if (!filled) continue;
    issues.push({
      path: `$.estimator.options.${option}`,
      message: `is replaced by the batch field ${filled.field}, which ${config.method} fills on every ${UNIT[config.method]} (${filled.source}), so "${estimator}" never reads it; remove it${filled.instead ? ` and ${filled.instead}` : ''}`,
    });
  }
  return issues;
}

/**
 * At `run`: a config setting an estimator option its run overrides is refused (`ValidationError`, before
 * anything is written), as `skillrl check` reports it. On resume it is a warning instead: the run already
 * went on without the option, and continuing keeps it as it started.
 */
export function refuseOverriddenOptions(
  config: Pick<RunConfig, 'method' | 'estimator' | 'evolve'>,
  overrides: EstimatorBatchOverrides,
  fields: readonly MethodBatchField[],
  options: { resume?: boolean; onWarning?: (message: string) => void },
): void {
  const issues = checkEstimatorOverrides(config, overrides, fields);
  if (issues.length === 0) return;
  if (!options.resume) throw new ValidationError('config', issues);
  for (const issue of issues) {
    options.onWarning?.(
      `${issue.path.replace(/^\$\./, '')}: ${issue.message} (the run resumes as it started, without it)`,
    );
  }
}
