import type { ValidationIssue } from '@skillrl/core';
import type { ComponentSpec, RunConfig } from './config-types.js';

const SECRET_OPTION =
  /^(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|authorization|secret|password)$/i;

function checkSpec(path: string, spec: unknown, issues: ValidationIssue[]): void {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return;
  const s = spec as Exclude<ComponentSpec, string>;
  if (s.name === undefined && s.package === undefined) {
    issues.push({ path, message: 'name a registered component ("name") or a package ("package"), or both' });
  }
  const options = s.options;
  if (options && typeof options === 'object') {
    for (const key of Object.keys(options)) {
      if (SECRET_OPTION.test(key)) {
        // The path stays on the parent: "<key>: <message>" would read as a credential and be redacted.
        issues.push({
          path: `${path}.options`,
          message: `holds a key named ${key}; keys do not belong in a config file. Put it in an environment variable and give that variable's name as ${key}Env (e.g. OPENAI_API_KEY)`,
        });
      }
    }
  }
}

/** The rules a JSON Schema cannot say clearly: cross-field requirements and secrets in plain text. */
export function checkConfigSemantics(config: Partial<RunConfig>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  checkSpec('$.adapter', config.adapter, issues);
  checkSpec('$.agent', config.agent, issues);
  checkSpec('$.estimator', config.estimator, issues);
  checkSpec('$.evolve.generator', config.evolve?.generator, issues);
  checkSpec('$.internalize.trainer', config.internalize?.trainer, issues);
  if (config.method === 'evolve') {
    if (config.internalize !== undefined) {
      issues.push({
        path: '$.internalize',
        message: 'is only read by method "internalize"; remove it or change method',
      });
    }
    const variant = config.evolve?.variant ?? 'skill-r1';
    if (variant !== 'no-skill' && config.evolve?.generator === undefined) {
      issues.push({
        path: '$.evolve.generator',
        message: `is required for variant "${variant}" (e.g. "step-editor" offline, or "llm-editor")`,
      });
    }
    if (variant === 'vanilla-grpo' && (config.evolve?.generations ?? 1) !== 1) {
      issues.push({
        path: '$.evolve.generations',
        message: 'variant "vanilla-grpo" runs exactly one generation',
      });
    }
  }
  if (config.method === 'internalize') {
    if (config.evolve !== undefined) {
      issues.push({
        path: '$.evolve',
        message: 'is only read by method "evolve"; remove it or change method',
      });
    }
    if (config.internalize?.trainer === undefined) {
      issues.push({
        path: '$.internalize.trainer',
        message: 'is required (e.g. "tfjs" with the "skill-reading" agent)',
      });
    }
    const ablation = config.internalize?.ablation ?? 'none';
    const variant = config.internalize?.variant ?? 'skillc';
    if (ablation !== 'none' && variant !== 'skillc') {
      issues.push({
        path: '$.internalize.ablation',
        message: `ablations modify SKILLC; variant "${variant}" takes none`,
      });
    }
  }
  return issues;
}
