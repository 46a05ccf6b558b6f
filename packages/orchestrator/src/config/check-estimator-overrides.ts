import type { AdvantageBatch, EstimatorBatchOverrides, ValidationIssue } from '@skillrl/core';
import { ValidationError } from '@skillrl/core';
import type { RunConfig } from './config-types.js';

interface FilledField {
  field: keyof AdvantageBatch;
  /** Where the run's values come from, for the message. */
  source: string;
  /** What to set instead of an option the field replaces, when there is something. */
  instead?: string;
}

/**
 * The batch fields each method's step fills on every estimate, method inputs first (so an option two fields
 * replace is reported once, under the method input). Tested against the batches both methods really build.
 */
export const METHOD_BATCH_FIELDS: Record<RunConfig['method'], readonly FilledField[]> = {
  internalize: [
    {
      field: 'attributionStrengths',
      source:
        "SKILLC's λ_k of each rollout's skill type from the curriculum: 0 once the type retires, and under variants grpo, skill0 and d2skill-mixed",
      instead: 'set the base λ as internalize.curriculum.lambda; λ_k per type follows from the validations',
    },
    { field: 'scores', source: "each rollout's reward" },
    { field: 'groupIds', source: 'the task id' },
    { field: 'instanceIds', source: 'the task id' },
    { field: 'conditions', source: '1 with the skill in the prompt, 0 without' },
    { field: 'families', source: "the task's skill type" },
    { field: 'successes', source: "the verifier's verdict" },
    { field: 'lengths', source: "the episode's steps" },
    {
      field: 'stepRewards',
      source:
        "each step's environment reward, the last carrying what the verified score adds (core's stepRewardsOf)",
    },
    {
      field: 'stepKeys',
      source:
        "each step's anchor state: the environment's stateKey, else a hash of the observation (core's stateKeyOf)",
    },
  ],
  evolve: [
    {
      field: 'interGenerationWeights',
      source: 'evolve.lambda, default 1; 0 under variant vanilla-grpo',
      instead: 'set evolve.lambda instead',
    },
    {
      field: 'previousMeans',
      source: "each task's mean reward over the previous generation's candidates, measured by the run",
    },
    {
      field: 'carriedMeans',
      source: "the mean reward of each task's carried skill in the previous generation, measured by the run",
    },
    { field: 'scores', source: "each candidate's mean reward" },
    { field: 'groupIds', source: 'the task id' },
    { field: 'instanceIds', source: 'the task id' },
    { field: 'generations', source: 'the generation' },
  ],
};

const UNIT: Record<RunConfig['method'], string> = { internalize: 'step', evolve: 'generation' };

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
 * the options it replaces (`batchOverrides`), and the method fills the fields in `METHOD_BATCH_FIELDS` on
 * every estimate, so such an option would do nothing. One issue per option, naming it, the field that
 * replaces it and where the run's values come from. No estimator is named here: a package's estimator that
 * declares its overrides is checked the same way.
 */
export function checkEstimatorOverrides(
  config: Pick<RunConfig, 'method' | 'estimator' | 'evolve'>,
  overrides: EstimatorBatchOverrides,
): ValidationIssue[] {
  const spec = config.estimator;
  if (spec === undefined || typeof spec === 'string' || !spec.options) return [];
  // `no-skill` proposes nothing and never calls the estimator.
  if (config.method === 'evolve' && config.evolve?.variant === 'no-skill') return [];
  const estimator = spec.name ?? spec.package ?? 'the estimator';
  const issues: ValidationIssue[] = [];
  for (const option of Object.keys(spec.options)) {
    const filled = METHOD_BATCH_FIELDS[config.method].find((f) => overrides[f.field]?.includes(option));
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
  options: { resume?: boolean; onWarning?: (message: string) => void },
): void {
  const issues = checkEstimatorOverrides(config, overrides);
  if (issues.length === 0) return;
  if (!options.resume) throw new ValidationError('config', issues);
  for (const issue of issues) {
    options.onWarning?.(
      `${issue.path.replace(/^\$\./, '')}: ${issue.message} (the run resumes as it started, without it)`,
    );
  }
}
