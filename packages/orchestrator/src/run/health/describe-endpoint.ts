import { type ComponentSpec, type RunConfig, redactUrl } from '@skillrl/core';
import type { EndpointInfo } from '@skillrl/rollout';

function optionsOf(spec: ComponentSpec | undefined): Record<string, unknown> | undefined {
  if (!spec || typeof spec === 'string') return undefined;
  const options = spec.options;
  return options && typeof options === 'object' ? (options as Record<string, unknown>) : undefined;
}

function nameOf(spec: ComponentSpec | undefined): string {
  if (!spec) return 'none';
  if (typeof spec === 'string') return spec;
  return spec.package ?? spec.name ?? 'component';
}

function urlsAt(options: Record<string, unknown> | undefined, prefix: string): EndpointInfo | undefined {
  if (!options) return undefined;
  const list = options.baseURLs;
  if (Array.isArray(list) && list.length > 0) {
    return { endpoint: list.map((u) => redactUrl(String(u))).join(', '), field: `${prefix}.baseURLs` };
  }
  if (typeof options.baseURL === 'string') {
    return { endpoint: redactUrl(options.baseURL), field: `${prefix}.baseURL` };
  }
  return undefined;
}

/** The task model's endpoint (`agent`), where rollouts' model calls go. */
export function rolloutEndpoint(config: RunConfig): EndpointInfo {
  const found = urlsAt(optionsOf(config.agent), 'agent.options');
  if (found) return found;
  const name = nameOf(config.agent);
  // The openai agent without a baseURL talks to the openai client's default.
  if (name === 'openai') return { endpoint: 'https://api.openai.com/v1', field: 'agent.options.baseURL' };
  return { endpoint: `the agent "${name}"` };
}

/** The skill editor's endpoint (`evolve.generator`), where an LLM editor's calls go. */
export function editorEndpoint(config: RunConfig): EndpointInfo {
  const spec = config.evolve?.generator;
  const options = optionsOf(spec);
  const model = options?.model;
  const nested =
    model && typeof model === 'object'
      ? urlsAt(model as Record<string, unknown>, 'evolve.generator.options.model')
      : undefined;
  return (
    nested ?? urlsAt(options, 'evolve.generator.options') ?? { endpoint: `the editor "${nameOf(spec)}"` }
  );
}
