import { resolve } from 'node:path';
import type { RunConfig } from '@skillrl/orchestrator';
import { EXAMPLE, exampleConfig } from './run-example.js';

/** The example's config pointed at the fakes (Tinker for the editor, OpenAI-compatible for the task model), paths absolute. */
export function againstFakes(
  tinkerUrl: string,
  taskModelUrl: string,
  over: Record<string, unknown> = {},
): RunConfig {
  const config = structuredClone(exampleConfig('skill-r1.yaml'));
  const agent = config.agent as { options: Record<string, unknown> };
  const generator = config.evolve?.generator as {
    options: { trainer: { options: Record<string, unknown> } };
  };
  const trainer = generator.options.trainer.options;
  agent.options.baseURL = taskModelUrl;
  trainer.baseURL = tinkerUrl;
  trainer.tokenizer = resolve(EXAMPLE, String(trainer.tokenizer));
  return { ...config, ...over } as RunConfig;
}
