import { MissingFieldError } from '@skillrl/core';
import { withApiKeyFromEnv } from '../options/openai-config-options.js';
import { createOpenAIAgent, type OpenAIAgent, type OpenAIAgentOptions } from './create-openai-agent.js';

/** What a config-level factory is told about the run (the orchestrator's component context). */
export interface OpenAIAgentConfigContext {
  /** The component's seed, derived from the run's. */
  seed: number;
  /** Where the options sit in the config, for messages. Default `agent.options`. */
  path?: string;
}

/**
 * The openai agent as a config names it (`agent: { name: openai, options }`): `model` is required, and
 * `apiKeyEnv` names the variable its key is read from (registered as a secret, never written anywhere).
 */
export function createOpenAIAgentFromConfig(
  options: Readonly<Record<string, unknown>>,
  { seed, path = 'agent.options' }: OpenAIAgentConfigContext,
): OpenAIAgent {
  if (typeof options.model !== 'string') throw new MissingFieldError(path, 'model');
  return createOpenAIAgent({ seed, ...withApiKeyFromEnv(options, path) } as OpenAIAgentOptions);
}
