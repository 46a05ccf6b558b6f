import { resolve } from 'node:path';
import type { RunConfig } from '@skillrl/orchestrator';
import { EXAMPLE, exampleConfig } from './run-example.js';

/** The example's config pointed at a fake server, with its relative paths made absolute (the copy lives in runs/test/). */
export function againstFake(url: string, over: Record<string, unknown> = {}): RunConfig {
  const config = structuredClone(exampleConfig('skillc.yaml'));
  const agent = config.agent as { options: Record<string, unknown> };
  agent.options.baseURL = url;
  agent.options.tokenizer = resolve(EXAMPLE, String(agent.options.tokenizer));
  return { ...config, ...over } as RunConfig;
}
