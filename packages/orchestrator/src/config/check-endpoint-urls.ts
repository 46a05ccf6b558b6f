import type { RunConfig } from '@skillrl/core';
import { redactSecrets, type ValidationIssue } from '@skillrl/core';

const COMPONENTS: [string, (c: Partial<RunConfig>) => unknown][] = [
  ['$.adapter', (c) => c.adapter],
  ['$.agent', (c) => c.agent],
  ['$.estimator', (c) => c.estimator],
  ['$.evolve.generator', (c) => c.evolve?.generator],
  ['$.internalize.trainer', (c) => c.internalize?.trainer],
];

function urlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `expected a URL string, got ${JSON.stringify(value)}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not a URL: "${redactSecrets(value)}" (expected e.g. http://127.0.0.1:8000/v1)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `expected an http:// or https:// URL, got "${redactSecrets(value)}"`;
  }
  return undefined;
}

function walk(path: string, value: unknown, issues: ValidationIssue[], depth: number): void {
  if (depth > 6 || value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (key === 'baseURL') {
      const problem = urlProblem(inner);
      if (problem) issues.push({ path: at, message: problem });
    } else if (key === 'baseURLs') {
      if (!Array.isArray(inner) || inner.length === 0) {
        issues.push({ path: at, message: 'expected a non-empty list of URLs' });
      } else {
        inner.forEach((u, i) => {
          const problem = urlProblem(u);
          if (problem) issues.push({ path: `${at}[${i}]`, message: problem });
        });
      }
    } else walk(at, inner, issues, depth + 1);
  }
}

/**
 * Endpoint URLs in components' options (`baseURL`, `baseURLs`, at any depth: an LLM editor's `model.baseURL`
 * too) must be http(s) URLs: a typo fails when the config is checked, naming the field, instead of every
 * model call of the run failing with a connection error.
 */
export function checkEndpointUrls(config: Partial<RunConfig>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [path, get] of COMPONENTS) {
    const spec = get(config);
    if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
      walk(`${path}.options`, (spec as { options?: unknown }).options, issues, 0);
    }
  }
  return issues;
}
